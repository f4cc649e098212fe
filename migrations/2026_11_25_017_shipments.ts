import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration never imports application code.

/**
 * Prepaid return labels and their tracking (issue 27). One shipment per request (the unique
 * request_id is what makes two racing label calls book one parcel): the row is reserved
 * ('booking', with a token and a time) before the carrier is called outside any transaction, and
 * becomes 'booked' by a conditional update when the carrier answers; a failed call deletes it.
 * shipment_events keeps each tracking event once (unique per shipment and carrier event key).
 * request_events gains two timeline entries: 'label' (a label was made) and 'tracking' (a step),
 * beside every kind before it (migration 015's offer kinds included).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table shipments (
      id uuid primary key default gen_random_uuid(),
      request_id uuid not null unique references exchange_requests(id) on delete cascade,
      carrier text not null,
      state text not null default 'booking' check (state in ('booking', 'booked')),
      reservation text not null,
      reserved_at timestamptz not null default now(),
      carrier_name text,
      tracking_number text unique,
      carrier_shipment_id text,
      label_pdf bytea,
      pickup_name text not null,
      pickup_phone text not null,
      pickup_line1 text not null,
      pickup_line2 text,
      pickup_city text not null,
      pickup_state text not null,
      pickup_postal_code text not null,
      latest_status text check (latest_status in ('picked_up', 'in_transit', 'out_for_delivery', 'delivered', 'failed')),
      latest_status_at timestamptz,
      created_at timestamptz not null default now(),
      check (state = 'booking' or (tracking_number is not null and carrier_name is not null))
    )`.execute(db);
  await sql`create index shipments_created_idx on shipments (created_at desc, id)`.execute(db);
  await sql`
    create table shipment_events (
      id bigint generated always as identity primary key,
      shipment_id uuid not null references shipments(id) on delete cascade,
      event_key text not null,
      status text not null check (status in ('picked_up', 'in_transit', 'out_for_delivery', 'delivered', 'failed')),
      occurred_at timestamptz not null,
      description text,
      location text,
      recorded_at timestamptz not null default now(),
      unique (shipment_id, event_key)
    )`.execute(db);
  // the embedded carrier's AWB numbers: unique by construction
  await sql`create sequence embedded_awb_seq start with 100000001`.execute(db);
  await sql`alter table request_events drop constraint if exists request_events_type_check`.execute(db);
  await sql`
    alter table request_events add constraint request_events_type_check check (type in (
      'created', 'approved', 'declined', 'shipped', 'received', 'credited', 'completed', 'cancelled', 'deleted',
      'offered', 'offer_accepted', 'offer_declined', 'returned', 'reminded', 'label', 'tracking'
    ))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from request_events where type in ('label', 'tracking')`.execute(db);
  await sql`alter table request_events drop constraint if exists request_events_type_check`.execute(db);
  await sql`
    alter table request_events add constraint request_events_type_check check (type in (
      'created', 'approved', 'declined', 'shipped', 'received', 'credited', 'completed', 'cancelled', 'deleted',
      'offered', 'offer_accepted', 'offer_declined', 'returned', 'reminded'
    ))`.execute(db);
  await sql`drop sequence if exists embedded_awb_seq`.execute(db);
  await sql`drop table if exists shipment_events`.execute(db);
  await sql`drop table if exists shipments`.execute(db);
}
