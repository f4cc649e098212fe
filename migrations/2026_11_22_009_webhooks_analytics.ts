import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration never imports application code.

/**
 * Signed webhooks: endpoints, an outbox of deliveries (one per endpoint and event, written in the
 * transaction of the change) and every attempt. Analytics: indexes for the date-range figures
 * (credit_ledger is already indexed by created_at).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table webhook_endpoints (
      id uuid primary key default gen_random_uuid(),
      url text not null,
      events text[] not null,
      secret text not null,
      enabled boolean not null default true,
      disabled_reason text,
      consecutive_failures integer not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table webhook_deliveries (
      id bigint generated always as identity primary key,
      endpoint_id uuid not null references webhook_endpoints(id) on delete cascade,
      event_id text not null,
      event_type text not null,
      body text not null,
      status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz,
      retry_until timestamptz not null default now() + interval '24 hours',
      last_status_code integer,
      last_error text,
      delivered_at timestamptz,
      created_at timestamptz not null default now(),
      unique (endpoint_id, event_id)
    )`.execute(db);
  await sql`create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending'`.execute(db);
  await sql`create index webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, id desc)`.execute(db);
  await sql`create index webhook_deliveries_failed_idx on webhook_deliveries (id desc) where status = 'failed'`.execute(db);

  await sql`
    create table webhook_attempts (
      id bigint generated always as identity primary key,
      delivery_id bigint not null references webhook_deliveries(id) on delete cascade,
      status_code integer,
      duration_ms integer not null,
      error text,
      response_excerpt text,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index webhook_attempts_delivery_idx on webhook_attempts (delivery_id, id)`.execute(db);

  await sql`create index exchange_requests_created_idx on exchange_requests (created_at)`.execute(db);
  await sql`create index exchange_requests_credited_idx on exchange_requests (credited_at) where credited_at is not null`.execute(db);
  await sql`create index request_events_type_idx on request_events (type, created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of ['exchange_requests_created_idx', 'exchange_requests_credited_idx', 'request_events_type_idx']) {
    await sql`drop index if exists ${sql.raw(index)}`.execute(db);
  }
  await sql`drop table if exists webhook_attempts`.execute(db);
  await sql`drop table if exists webhook_deliveries`.execute(db);
  await sql`drop table if exists webhook_endpoints`.execute(db);
}
