import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration never imports application code.

/** Issue 25, point 7: which version of the terms and privacy notice each customer agreed to, and when. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table terms_agreements (
      user_id uuid not null references users(id) on delete cascade,
      version text not null check (length(version) between 1 and 100),
      agreed_at timestamptz not null default now(),
      primary key (user_id, version)
    )`.execute(db);
  await sql`create index terms_agreements_latest_idx on terms_agreements (user_id, agreed_at desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists terms_agreements`.execute(db);
}
