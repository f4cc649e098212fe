import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration never imports application code.

/**
 * What a customer cancelled (issue 26, point 8). Cancelling still deletes the request, so every list,
 * count, cap and analytics query keeps treating it as gone; this small record, written in the same
 * transaction as the delete, is what the customer's "Cancelled" filter lists. No images: they leave
 * storage as before. An admin's deletion is not a cancellation and writes nothing here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table cancelled_requests (
      request_id uuid primary key,
      user_id uuid not null references users(id) on delete cascade,
      product_name text not null,
      brand text not null,
      condition text not null,
      created_at timestamptz not null,
      cancelled_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index cancelled_requests_user_idx on cancelled_requests (user_id, cancelled_at desc, request_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists cancelled_requests`.execute(db);
}
