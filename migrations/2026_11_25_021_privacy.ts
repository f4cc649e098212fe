import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration never imports application code.

/**
 * Privacy work that runs in the job loop (issue 25): the files of an erased customer's photos that
 * still have to leave the image store, and Shopify's compliance webhooks (customers/data_request,
 * customers/redact, shop/redact). One row is one job with the job columns of docs/CONVENTIONS.md;
 * a Shopify webhook is recorded once by its X-Shopify-Webhook-Id, so a repeat does the work once.
 * `payload` holds what the job needs (a webhook's JSON, or the public ids of removed photos) and is
 * cut down to what names no person once the job is done; `result` says what it did (an export's path).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table privacy_jobs (
      id bigserial primary key,
      kind text not null check (kind in ('remove-media', 'customers/data_request', 'customers/redact', 'shop/redact')),
      webhook_id text unique,
      shop_domain text,
      payload jsonb not null,
      status text not null default 'pending' check (status in ('pending', 'done', 'failed')),
      attempts integer not null default 0 check (attempts >= 0),
      due_at timestamptz default now(),
      last_error text,
      result text,
      done_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index privacy_jobs_due_idx on privacy_jobs (due_at) where status = 'pending'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists privacy_jobs`.execute(db);
}
