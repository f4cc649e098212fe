import type { Generated } from 'kysely';
import type { Timestamp, CreatedAt } from '../columns.ts';

/** Prepaid return labels, returns sent back through the carrier, and their tracking events (issues 27 and 24). */

/** inbound: a prepaid label, customer → warehouse (migration 017); outbound: a declined offer's item sent back (migration 033). */
export const SHIPMENT_DIRECTIONS = ['inbound', 'outbound'] as const;
export type ShipmentDirection = (typeof SHIPMENT_DIRECTIONS)[number];

/** A parcel booked with the carrier: reserved while the carrier is called, booked once it answers. One per request and direction. */
export interface ShipmentsTable {
  id: Generated<string>;
  request_id: string;
  direction: Generated<ShipmentDirection>;
  carrier: string;
  state: Generated<'booking' | 'booked'>;
  /** the token of the call that reserved the row: only that call may book it or give it up */
  reservation: string;
  reserved_at: Timestamp;
  carrier_name: string | null;
  tracking_number: string | null;
  carrier_shipment_id: string | null;
  /** the carrier's own label, when it gives one; null: our label page is printed */
  label_pdf: Uint8Array | null;
  /** where the courier collects the parcel: the customer (inbound) or the warehouse (outbound) */
  pickup_name: string;
  pickup_phone: string;
  pickup_line1: string;
  pickup_line2: string | null;
  pickup_city: string;
  pickup_state: string;
  pickup_postal_code: string;
  latest_status: 'picked_up' | 'in_transit' | 'out_for_delivery' | 'delivered' | 'failed' | null;
  latest_status_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface ShipmentEventsTable {
  id: Generated<number>;
  shipment_id: string;
  event_key: string;
  status: 'picked_up' | 'in_transit' | 'out_for_delivery' | 'delivered' | 'failed';
  occurred_at: Timestamp;
  description: string | null;
  location: string | null;
  recorded_at: CreatedAt;
}
