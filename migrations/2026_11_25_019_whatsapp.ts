import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration never imports application code.

/**
 * WhatsApp notifications (issue 29, point 1). A customer's phone (E.164), whether they opted in to
 * WhatsApp and their language live on the user. The outbox is a queue of its own (job columns as
 * mail_outbox's): one row per template message, sent at most once (the Cloud API's message id is
 * unique), its delivery status as the webhook reports it, and every attempt's outcome in
 * whatsapp_attempts.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table users add column phone text`.execute(db);
  await sql`alter table users add column whatsapp_opt_in boolean not null default false`.execute(db);
  await sql`alter table users add column whatsapp_opted_in_at timestamptz`.execute(db);
  await sql`alter table users add column language text not null default 'en' check (language in ('en', 'hi'))`.execute(db);
  await sql`create index users_phone_idx on users (phone) where phone is not null`.execute(db);

  await sql`
    create table whatsapp_outbox (
      id bigint generated always as identity primary key,
      user_id uuid not null references users(id) on delete cascade,
      to_phone text not null,
      template text not null,
      template_name text not null,
      language text not null,
      params jsonb not null,
      status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz,
      last_error text,
      wa_message_id text unique,
      delivery_status text check (delivery_status in ('sent', 'delivered', 'read', 'failed')),
      delivery_error text,
      sent_at timestamptz,
      delivered_at timestamptz,
      read_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index whatsapp_outbox_due_idx on whatsapp_outbox (next_attempt_at) where status = 'pending'`.execute(db);
  await sql`create index whatsapp_outbox_user_idx on whatsapp_outbox (user_id, id desc)`.execute(db);

  await sql`
    create table whatsapp_attempts (
      id bigint generated always as identity primary key,
      message_id bigint not null references whatsapp_outbox(id) on delete cascade,
      status_code integer,
      error text,
      duration_ms integer not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index whatsapp_attempts_message_idx on whatsapp_attempts (message_id, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists whatsapp_attempts`.execute(db);
  await sql`drop table if exists whatsapp_outbox`.execute(db);
  await sql`drop index if exists users_phone_idx`.execute(db);
  for (const column of ['language', 'whatsapp_opted_in_at', 'whatsapp_opt_in', 'phone']) {
    await sql`alter table users drop column if exists ${sql.raw(column)}`.execute(db);
  }
}
