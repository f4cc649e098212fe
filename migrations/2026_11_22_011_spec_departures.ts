import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration never imports application code.

/** The unnamed check of exchange_requests whose definition mentions `fragment`, dropped by its generated name. */
async function dropRequestCheck(db: Kysely<any>, fragment: string): Promise<void> {
  await sql`
    do $$
    declare c text;
    begin
      for c in select conname from pg_constraint
                where conrelid = 'exchange_requests'::regclass and contype = 'c'
                  and pg_get_constraintdef(oid) like ${sql.lit(`%${fragment}%`)}
      loop
        execute format('alter table exchange_requests drop constraint %I', c);
      end loop;
    end $$`.execute(db);
}

/**
 * §5: credit is a number ≥ 0. A 0 credit (an item taken for recycling) is recorded in the ledger,
 * and "credit was assigned" is credited_at, no longer credit_amount > 0, so such a request completes
 * (rows written before credited_at was kept stay valid by their amount).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table credit_ledger drop constraint credit_ledger_amount_check`.execute(db);
  await sql`alter table credit_ledger add constraint credit_ledger_amount_check check (amount >= 0)`.execute(db);
  await dropRequestCheck(db, "'completed'::text) OR (credit_amount > ");
  await sql`alter table exchange_requests add constraint exchange_requests_completed_credited check (status <> 'completed' or credited_at is not null or credit_amount > 0)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table exchange_requests drop constraint exchange_requests_completed_credited`.execute(db);
  await sql`delete from credit_ledger where amount = 0`.execute(db);
  await sql`alter table credit_ledger drop constraint credit_ledger_amount_check`.execute(db);
  await sql`alter table credit_ledger add constraint credit_ledger_amount_check check (amount > 0)`.execute(db);
  await sql`alter table exchange_requests add check (status <> 'completed' or credit_amount > 0)`.execute(db);
}
