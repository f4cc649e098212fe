import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration never imports application code.

/**
 * Issue 27, point 2: a shop customer's default address from the shop's export, to fill in the
 * prepaid label's pickup form. A table of its own (not columns of shop_customers) because it is the
 * customer's personal data that an erasure removes, while the directory row is the shop's and stays.
 * At least one field is set: a customer without an address has no row.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table shop_customer_addresses (
      customer_id uuid primary key references shop_customers(id) on delete cascade,
      address_line1 text,
      address_line2 text,
      city text,
      state text,
      postal_code text,
      country_code text,
      phone text,
      updated_at timestamptz not null default now(),
      check (coalesce(address_line1, address_line2, city, state, postal_code, country_code, phone) is not null)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists shop_customer_addresses`.execute(db);
}
