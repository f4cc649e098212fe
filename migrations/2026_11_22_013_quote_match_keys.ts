import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration never imports application code.

/**
 * The quote finds a guide entry by the first six characters of its model: every pattern found in a
 * product name starts with one of the name's substrings of up to six characters, so a quote probes
 * this index with those (a few hundred at most) instead of testing every pattern of the brand.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists valuation_entries_quote`.execute(db);
  await sql`create index valuation_entries_match on valuation_entries (lower(brand), left(lower(model), 6)) where is_active`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists valuation_entries_match`.execute(db);
  await sql`create index valuation_entries_quote on valuation_entries (lower(brand), length(model) desc) include (model) where is_active`.execute(db);
}
