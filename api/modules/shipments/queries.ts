import type { Db } from '#api/db/connect.ts';
import type { ShipmentRow } from '#api/db/types.ts';
import type { Shipment } from './model.ts';

/** Reads of labels and their tracking. */

export const labelUrl = (publicUrl: string, requestId: string) => `${publicUrl}/api/exchange/${requestId}/label`;

/** Who the customer is to a pickup form: their name (ours, else the shop directory's) and their profile's phone. */
export async function pickupPersonOf(db: Db, userId: string): Promise<{ name: string | null; phone: string | null }> {
  const person = await db
    .selectFrom('users')
    .leftJoin('shop_customers', 'shop_customers.email', 'users.email')
    .select(['users.name', 'users.phone', 'shop_customers.first_name', 'shop_customers.last_name'])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  return { name: person?.name || [person?.first_name, person?.last_name].filter(Boolean).join(' ') || null, phone: person?.phone ?? null };
}

/** The request's booked label, if any (a reservation still waiting for its carrier is not one). */
export async function bookedShipmentOf(db: Db, requestId: string): Promise<ShipmentRow | undefined> {
  return db.selectFrom('shipments').selectAll().where('request_id', '=', requestId).where('state', '=', 'booked').executeTakeFirst();
}

export async function shipmentByTracking(db: Db, carrier: string, trackingNumber: string): Promise<ShipmentRow | undefined> {
  return db.selectFrom('shipments').selectAll().where('carrier', '=', carrier).where('tracking_number', '=', trackingNumber).where('state', '=', 'booked').executeTakeFirst();
}

/** A label with its tracking steps in the order they happened. */
export async function shipmentView(db: Db, publicUrl: string, row: ShipmentRow): Promise<Shipment> {
  const events = await db
    .selectFrom('shipment_events')
    .select(['status', 'occurred_at', 'description', 'location'])
    .where('shipment_id', '=', row.id)
    .orderBy('occurred_at')
    .orderBy('id')
    .execute();
  return {
    carrier: row.carrier_name!,
    trackingNumber: row.tracking_number!,
    labelUrl: labelUrl(publicUrl, row.request_id),
    status: row.latest_status,
    statusAt: row.latest_status_at ? new Date(row.latest_status_at).toISOString() : null,
    createdAt: new Date(row.created_at).toISOString(),
    pickup: {
      name: row.pickup_name,
      phone: row.pickup_phone,
      addressLine1: row.pickup_line1,
      addressLine2: row.pickup_line2,
      city: row.pickup_city,
      state: row.pickup_state,
      postalCode: row.pickup_postal_code,
    },
    events: events.map((e) => ({ status: e.status, at: new Date(e.occurred_at).toISOString(), description: e.description, location: e.location })),
  };
}

export interface ShipmentListItem {
  requestId: string;
  productName: string;
  customerEmail: string;
  carrier: string;
  trackingNumber: string;
  status: string | null;
  statusAt: string | null;
  createdAt: string;
}

/** Every booked label, newest first, with its latest state (`swappoints shipments list`). */
export async function listShipments(db: Db, limit: number): Promise<ShipmentListItem[]> {
  const rows = await db
    .selectFrom('shipments as s')
    .innerJoin('exchange_requests as r', 'r.id', 's.request_id')
    .select(['s.request_id', 'r.product_name', 'r.customer_email', 's.carrier_name', 's.tracking_number', 's.latest_status', 's.latest_status_at', 's.created_at'])
    .where('s.state', '=', 'booked')
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    requestId: r.request_id,
    productName: r.product_name,
    customerEmail: r.customer_email,
    carrier: r.carrier_name!,
    trackingNumber: r.tracking_number!,
    status: r.latest_status,
    statusAt: r.latest_status_at ? new Date(r.latest_status_at).toISOString() : null,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}
