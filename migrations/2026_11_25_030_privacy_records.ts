import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration never imports application code.

/**
 * Issue 25: photos kept only PHOTO_RETENTION_DAYS after a request closes (the request remembers
 * when they were removed), and a record of each time an admin or operator looked at a customer's
 * personal data (kept one year).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table exchange_requests add column photos_removed_at timestamptz`.execute(db);
  // the retention job's scan: closed requests whose photos are still there, oldest first
  await sql`
    create index exchange_requests_photo_retention_idx on exchange_requests ((coalesce(completed_at, decided_at)))
    where photos_removed_at is null and status in ('completed', 'declined')`.execute(db);
  await sql`
    create table privacy_access_log (
      id bigint generated always as identity primary key,
      actor_email text not null,
      action text not null,
      subject_email text,
      request_id uuid,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index privacy_access_log_time_idx on privacy_access_log (created_at desc, id desc)`.execute(db);
  await sql`create index privacy_access_log_subject_idx on privacy_access_log (lower(subject_email), created_at desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists privacy_access_log`.execute(db);
  await sql`drop index if exists exchange_requests_photo_retention_idx`.execute(db);
  await sql`alter table exchange_requests drop column if exists photos_removed_at`.execute(db);
}
