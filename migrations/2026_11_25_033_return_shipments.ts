import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration never imports application code.

/**
 * A declined offer's item sent back through the carrier (issue 24, "Send it back to me"). A shipment
 * now has a direction: 'inbound' (migration 017's prepaid labels, customer → warehouse) or 'outbound'
 * (the return, warehouse → customer). One of each per request at most: the unique key moves from
 * request_id to (request_id, direction), which is what makes two racing "Book the return" calls book
 * one parcel. The pickup_* columns keep meaning where the courier collects the parcel: the customer
 * for an inbound label, the warehouse for an outbound return (the customer's address stays in
 * exchange_requests.return_address).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table shipments
      add column direction text not null default 'inbound' check (direction in ('inbound', 'outbound'))`.execute(db);
  await sql`alter table shipments drop constraint shipments_request_id_key`.execute(db);
  await sql`alter table shipments add constraint shipments_request_direction_key unique (request_id, direction)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from shipments where direction = 'outbound'`.execute(db);
  await sql`alter table shipments drop constraint shipments_request_direction_key`.execute(db);
  await sql`alter table shipments add constraint shipments_request_id_key unique (request_id)`.execute(db);
  await sql`alter table shipments drop column direction`.execute(db);
}
