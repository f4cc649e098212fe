import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration never imports application code.

/** One shop transaction backs at most one ledger row: two rows claiming the same credit is a double count. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create unique index credit_ledger_external_transaction_id_key on credit_ledger (external_transaction_id)
      where external_transaction_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists credit_ledger_external_transaction_id_key`.execute(db);
}
