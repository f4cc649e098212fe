import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration never imports application code.

/** The credit history's search box finds a record by a part of its user ID or exchange ID. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create index credit_ledger_search_idx on credit_ledger
      using gin ((user_id::text || ' ' || exchange_request_id::text) gin_trgm_ops)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists credit_ledger_search_idx`.execute(db);
}
