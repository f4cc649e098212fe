import type { Db } from '#api/db/connect.ts';
import type { ShipmentDirection, ShipmentRow } from '#api/db/types.ts';
import type { ReturnParcel, Shipment, TrackingStep } from './model.ts';

/** Reads of labels, returns and their tracking. */

export const labelUrl = (publicUrl: string, requestId: string) => `${publicUrl}/api/exchange/${requestId}/label`;
/** the return's label, for admins only */
export const returnLabelUrl = (publicUrl: string, requestId: string) => `${publicUrl}/api/admin/exchange-requests/${requestId}/return/label`;

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

/** The request's booked parcel in that direction (its prepaid label by default), if any: a reservation still waiting for its carrier is not one. */
export async function bookedShipmentOf(db: Db, requestId: string, direction: ShipmentDirection = 'inbound'): Promise<ShipmentRow | undefined> {
  return db.selectFrom('shipments').selectAll().where('request_id', '=', requestId).where('direction', '=', direction).where('state', '=', 'booked').executeTakeFirst();
}

export async function shipmentByTracking(db: Db, carrier: string, trackingNumber: string): Promise<ShipmentRow | undefined> {
  return db.selectFrom('shipments').selectAll().where('carrier', '=', carrier).where('tracking_number', '=', trackingNumber).where('state', '=', 'booked').executeTakeFirst();
}

/** A parcel's tracking steps, each once, in the order they happened. */
async function stepsOf(db: Db, shipmentId: string): Promise<TrackingStep[]> {
  const events = await db
    .selectFrom('shipment_events')
    .select(['status', 'occurred_at', 'description', 'location'])
    .where('shipment_id', '=', shipmentId)
    .orderBy('occurred_at')
    .orderBy('id')
    .execute();
  return events.map((e) => ({ status: e.status, at: new Date(e.occurred_at).toISOString(), description: e.description, location: e.location }));
}

/** A declined offer's return booked with the carrier, with its tracking steps. */
export async function returnParcelView(db: Db, row: ShipmentRow): Promise<ReturnParcel> {
  return {
    carrier: row.carrier_name!,
    trackingNumber: row.tracking_number!,
    status: row.latest_status,
    statusAt: row.latest_status_at ? new Date(row.latest_status_at).toISOString() : null,
    createdAt: new Date(row.created_at).toISOString(),
    events: await stepsOf(db, row.id),
  };
}

/** A label with its tracking steps in the order they happened. */
export async function shipmentView(db: Db, publicUrl: string, row: ShipmentRow): Promise<Shipment> {
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
    events: await stepsOf(db, row.id),
  };
}

export interface ShipmentListItem {
  requestId: string;
  /** inbound: a prepaid label to the warehouse; outbound: a declined offer's item sent back */
  direction: ShipmentDirection;
  productName: string;
  customerEmail: string;
  carrier: string;
  trackingNumber: string;
  status: string | null;
  statusAt: string | null;
  createdAt: string;
}

/** Every booked parcel (labels and returns), newest first, with its latest state (`swappoints shipments list`). */
export async function listShipments(db: Db, limit: number): Promise<ShipmentListItem[]> {
  const rows = await db
    .selectFrom('shipments as s')
    .innerJoin('exchange_requests as r', 'r.id', 's.request_id')
    .select(['s.request_id', 's.direction', 'r.product_name', 'r.customer_email', 's.carrier_name', 's.tracking_number', 's.latest_status', 's.latest_status_at', 's.created_at'])
    .where('s.state', '=', 'booked')
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    requestId: r.request_id,
    direction: r.direction,
    productName: r.product_name,
    customerEmail: r.customer_email,
    carrier: r.carrier_name!,
    trackingNumber: r.tracking_number!,
    status: r.latest_status,
    statusAt: r.latest_status_at ? new Date(r.latest_status_at).toISOString() : null,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}
