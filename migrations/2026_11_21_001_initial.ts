import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration never imports application code.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);

  await sql`
    create table users (
      id uuid primary key default gen_random_uuid(),
      email text not null unique check (email = lower(email) and email like '%_@_%'),
      name text,
      is_admin boolean not null default false,
      shop_customer_id text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table sessions (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      revoked_at timestamptz,
      ip text,
      user_agent text,
      check (expires_at > created_at)
    )`.execute(db);
  await sql`create index sessions_user_idx on sessions (user_id)`.execute(db);

  await sql`
    create table sign_in_tokens (
      id uuid primary key default gen_random_uuid(),
      email text not null check (email = lower(email)),
      token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
      next_path text check (next_path is null or (next_path like '/%' and next_path not like '//%')),
      requested_ip text,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz,
      check (expires_at > created_at)
    )`.execute(db);
  await sql`create index sign_in_tokens_email_idx on sign_in_tokens (email, created_at desc)`.execute(db);
  await sql`create index sign_in_tokens_expires_idx on sign_in_tokens (expires_at)`.execute(db);

  await sql`
    create table rate_limits (
      key text not null,
      window_start timestamptz not null,
      hits integer not null check (hits > 0),
      primary key (key, window_start)
    )`.execute(db);

  await sql`
    create table shop_customers (
      id uuid primary key default gen_random_uuid(),
      shop_customer_id text unique,
      email text not null unique check (email = lower(email) and email like '%_@_%'),
      first_name text,
      last_name text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table warehouses (
      id uuid primary key default gen_random_uuid(),
      name text not null check (btrim(name) <> ''),
      address_line1 text not null check (btrim(address_line1) <> ''),
      address_line2 text,
      city text not null check (btrim(city) <> ''),
      state text not null check (btrim(state) <> ''),
      postal_code text not null check (btrim(postal_code) <> ''),
      country text not null check (btrim(country) <> ''),
      contact_person text,
      contact_phone text,
      is_active boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index warehouses_name_key on warehouses (lower(name))`.execute(db);

  await sql`
    create table exchange_requests (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete restrict,
      customer_email text not null,
      product_name text not null check (btrim(product_name) <> ''),
      brand text not null check (btrim(brand) <> ''),
      description text not null check (btrim(description) <> ''),
      condition text not null check (condition in ('new', 'like_new', 'very_good', 'good', 'fair', 'poor')),
      status text not null default 'pending' check (status in ('pending', 'approved', 'declined', 'completed')),
      transit_status text check (transit_status in ('shipped', 'received', 'inspecting', 'ready')),
      shipping_carrier text,
      shipping_tracking_number text,
      shipping_date date,
      shipping_notes text,
      shipped_at timestamptz,
      warehouse_id uuid references warehouses(id) on delete set null,
      warehouse_snapshot jsonb,
      credit_amount numeric(12, 2) not null default 0 check (credit_amount >= 0),
      currency text not null default 'INR' check (currency ~ '^[A-Z]{3}$'),
      admin_feedback text,
      decided_at timestamptz,
      received_at timestamptz,
      credited_at timestamptz,
      completed_at timestamptz,
      search_text text generated always as (lower(product_name || ' ' || brand || ' ' || customer_email)) stored,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      -- shipping details are all there or none is
      check ((shipping_carrier is null) = (shipping_tracking_number is null)
         and (shipping_carrier is null) = (shipping_date is null)),
      -- approval needs a warehouse; the request keeps its address as it was then
      check (status not in ('approved', 'completed') or warehouse_snapshot is not null),
      -- an item moves only after its shipping details exist, and only once approved
      check (transit_status is null or (shipping_carrier is not null and status in ('approved', 'completed'))),
      check (shipping_carrier is null or status in ('approved', 'completed')),
      -- credit is assigned to a received item; completion needs credit
      check (credit_amount = 0 or transit_status is not null),
      check (status <> 'completed' or credit_amount > 0)
    )`.execute(db);
  await sql`create index exchange_requests_user_idx on exchange_requests (user_id, created_at desc, id)`.execute(db);
  await sql`create index exchange_requests_status_idx on exchange_requests (status, created_at desc, id)`.execute(db);
  await sql`create index exchange_requests_approved_idx on exchange_requests ((shipping_carrier is not null), transit_status, created_at desc, id) where status = 'approved'`.execute(db);
  await sql`create index exchange_requests_search_idx on exchange_requests using gin (search_text gin_trgm_ops)`.execute(db);
  await sql`create index exchange_requests_warehouse_idx on exchange_requests (warehouse_id) where warehouse_id is not null`.execute(db);

  await sql`
    create table request_images (
      id uuid primary key default gen_random_uuid(),
      request_id uuid references exchange_requests(id) on delete cascade,
      uploaded_by uuid not null references users(id) on delete cascade,
      public_id text not null unique,
      url text not null,
      content_type text not null check (content_type in ('image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif')),
      byte_size integer not null check (byte_size > 0 and byte_size <= 5242880),
      position smallint not null default 0 check (position between 0 and 4),
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index request_images_position_key on request_images (request_id, position) where request_id is not null`.execute(db);
  await sql`create index request_images_unattached_idx on request_images (created_at) where request_id is null`.execute(db);
  await sql`create index request_images_uploader_idx on request_images (uploaded_by)`.execute(db);

  await sql`
    create table request_events (
      id bigint generated always as identity primary key,
      request_id uuid not null,
      type text not null check (type in ('created', 'approved', 'declined', 'shipped', 'received', 'credited', 'completed', 'cancelled', 'deleted')),
      actor_id uuid references users(id) on delete set null,
      actor_email text,
      actor_role text not null check (actor_role in ('customer', 'admin', 'system')),
      from_status text,
      to_status text,
      note text,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index request_events_request_idx on request_events (request_id, id)`.execute(db);

  await sql`
    create table credit_ledger (
      id bigint generated always as identity primary key,
      user_id uuid not null references users(id) on delete restrict,
      exchange_request_id uuid not null,
      type text not null check (type in ('exchange_credit')),
      amount numeric(12, 2) not null check (amount > 0),
      currency text not null check (currency ~ '^[A-Z]{3}$'),
      push_status text not null default 'pending' check (push_status in ('pending', 'success', 'failed')),
      push_attempts integer not null default 0 check (push_attempts >= 0),
      next_push_at timestamptz,
      last_push_error text,
      external_transaction_id text,
      pushed_at timestamptz,
      note text,
      created_by uuid references users(id) on delete set null,
      created_at timestamptz not null default now(),
      -- one exchange credit per request: assigning twice credits once
      unique (exchange_request_id, type)
    )`.execute(db);
  await sql`create index credit_ledger_created_idx on credit_ledger (created_at desc, id desc)`.execute(db);
  await sql`create index credit_ledger_user_idx on credit_ledger (user_id, push_status)`.execute(db);
  await sql`create index credit_ledger_push_queue_idx on credit_ledger (next_push_at) where push_status <> 'success'`.execute(db);

  await sql`
    create table mail_outbox (
      id bigint generated always as identity primary key,
      to_email text not null,
      subject text not null,
      text_body text not null,
      html_body text,
      kind text not null,
      link text,
      status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
      attempts integer not null default 0 check (attempts >= 0),
      next_attempt_at timestamptz not null default now(),
      last_error text,
      sent_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index mail_outbox_queue_idx on mail_outbox (next_attempt_at) where status = 'pending'`.execute(db);
  await sql`create index mail_outbox_to_idx on mail_outbox (lower(to_email), id desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'mail_outbox', 'credit_ledger', 'request_events', 'request_images', 'exchange_requests',
    'warehouses', 'shop_customers', 'rate_limits', 'sign_in_tokens', 'sessions', 'users',
  ]) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
