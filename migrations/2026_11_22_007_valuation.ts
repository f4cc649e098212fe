import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration never imports application code.

/**
 * The valuation guide (entries, condition multipliers, eligibility rules and the minimum), bonus
 * campaigns, the quote a request was given at submission, and the bonus kept apart in the ledger.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table valuation_entries (
      id bigint generated always as identity primary key,
      brand text not null,
      model text not null,
      name text not null,
      base_value numeric(12,2) not null check (base_value >= 0),
      is_active boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index valuation_entries_brand_model on valuation_entries (lower(brand), lower(model))`.execute(db);
  // a quote reads the active entries of one brand, longest pattern first
  await sql`create index valuation_entries_quote on valuation_entries (lower(brand), length(model) desc) include (model) where is_active`.execute(db);

  await sql`
    create table valuation_conditions (
      condition text primary key,
      percent numeric(5,2) not null check (percent >= 0 and percent <= 100)
    )`.execute(db);
  await sql`
    insert into valuation_conditions (condition, percent) values
      ('new', 100), ('like_new', 85), ('very_good', 75), ('good', 60), ('fair', 40), ('poor', 20)`.execute(db);

  await sql`
    create table valuation_settings (
      id boolean primary key default true check (id),
      minimum_value numeric(12,2) not null default 0 check (minimum_value >= 0)
    )`.execute(db);
  await sql`insert into valuation_settings (id, minimum_value) values (true, 0)`.execute(db);

  await sql`
    create table valuation_rules (
      id bigint generated always as identity primary key,
      brand text not null,
      model text,
      reason text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index valuation_rules_brand_model on valuation_rules (lower(brand), lower(coalesce(model, '')))`.execute(db);

  await sql`
    create table bonus_campaigns (
      id bigint generated always as identity primary key,
      name text not null,
      kind text not null check (kind in ('percent', 'amount')),
      value numeric(12,2) not null check (value > 0),
      brand text,
      starts_at timestamptz not null,
      ends_at timestamptz not null,
      created_at timestamptz not null default now(),
      check (ends_at > starts_at)
    )`.execute(db);
  await sql`create index bonus_campaigns_window on bonus_campaigns (ends_at, starts_at)`.execute(db);

  await sql`
    alter table exchange_requests
      add column quote_estimate numeric(12,2),
      add column quote_bonus numeric(12,2),
      add column quote_currency text,
      add column quote_entry_id bigint,
      add column quote_campaign_id bigint,
      add column credit_reason text`.execute(db);

  // inspection photos an admin attaches to a credit below the quote live beside the customer's photos
  await sql`alter table request_images add column kind text not null default 'item' check (kind in ('item', 'inspection'))`.execute(db);
  await sql`drop index request_images_position_key`.execute(db);
  await sql`create unique index request_images_position_key on request_images (request_id, kind, position) where request_id is not null`.execute(db);

  await sql`
    alter table credit_ledger
      add column base_amount numeric(12,2),
      add column bonus_amount numeric(12,2) not null default 0,
      add column campaign_id bigint`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table credit_ledger drop column if exists base_amount, drop column if exists bonus_amount, drop column if exists campaign_id`.execute(db);
  await sql`delete from request_images where kind = 'inspection'`.execute(db);
  await sql`drop index if exists request_images_position_key`.execute(db);
  await sql`alter table request_images drop column if exists kind`.execute(db);
  await sql`create unique index request_images_position_key on request_images (request_id, position) where request_id is not null`.execute(db);
  await sql`
    alter table exchange_requests
      drop column if exists quote_estimate, drop column if exists quote_bonus, drop column if exists quote_currency,
      drop column if exists quote_entry_id, drop column if exists quote_campaign_id, drop column if exists credit_reason`.execute(db);
  for (const table of ['bonus_campaigns', 'valuation_rules', 'valuation_settings', 'valuation_conditions', 'valuation_entries']) {
    await sql`drop table if exists ${sql.raw(table)}`.execute(db);
  }
}
