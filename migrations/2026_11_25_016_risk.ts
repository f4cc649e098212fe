import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration never imports application code.

/**
 * Risk controls (issue 24, point 3).
 * - `risk_blocks`: who may not submit, by lower-case email or '@domain', with the admin's reason
 *   (never shown to the customer).
 * - `request_images.sha256` / `dhash`: the stored (cleaned) bytes' SHA-256 and a 64-bit difference
 *   hash, so the same photo, or a re-saved or resized copy, is found in another customer's request.
 *   Null for images stored before, until `swappoints risk rescan-photos` fills them.
 * - `risk_flags`: one row per flagged request and the request it shares a photo with (both ways);
 *   the requests' deletion removes them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table risk_blocks (
      id bigint generated always as identity primary key,
      entry text not null unique,
      reason text not null,
      created_by text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`alter table request_images add column sha256 text, add column dhash bigint`.execute(db);
  await sql`create index request_images_sha256_idx on request_images (sha256) where sha256 is not null`.execute(db);
  await sql`
    create table risk_flags (
      request_id uuid not null references exchange_requests(id) on delete cascade,
      other_request_id uuid not null references exchange_requests(id) on delete cascade,
      kind text not null,
      created_at timestamptz not null default now(),
      primary key (request_id, kind, other_request_id)
    )`.execute(db);
  await sql`create index risk_flags_other_idx on risk_flags (other_request_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists risk_flags`.execute(db);
  await sql`drop index if exists request_images_sha256_idx`.execute(db);
  await sql`alter table request_images drop column if exists sha256, drop column if exists dhash`.execute(db);
  await sql`drop table if exists risk_blocks`.execute(db);
}
