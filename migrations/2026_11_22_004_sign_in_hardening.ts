import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration never imports application code.

/**
 * Sessions end after SESSION_IDLE_HOURS without a request (last_seen_at), beside their absolute
 * expiry; the indexes let the background job prune expired sessions, spent links and sent mail.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table sessions add column last_seen_at timestamptz not null default now()`.execute(db);
  await sql`create index sessions_expires_at_idx on sessions (expires_at)`.execute(db);
  await sql`create index mail_outbox_sent_at_idx on mail_outbox (sent_at) where status = 'sent'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists mail_outbox_sent_at_idx`.execute(db);
  await sql`drop index if exists sessions_expires_at_idx`.execute(db);
  await sql`alter table sessions drop column if exists last_seen_at`.execute(db);
}
