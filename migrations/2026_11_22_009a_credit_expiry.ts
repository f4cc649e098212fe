import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration never imports application code.

/** Shopify store credit that expires (CREDIT_EXPIRY_DAYS): when, and whether its reminder went out. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table credit_ledger add column expires_at timestamptz, add column expiry_reminded_at timestamptz`.execute(db);
  await sql`create index credit_ledger_expiry_idx on credit_ledger (expires_at) where expires_at is not null and expiry_reminded_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists credit_ledger_expiry_idx`.execute(db);
  await sql`alter table credit_ledger drop column if exists expires_at, drop column if exists expiry_reminded_at`.execute(db);
}
