import type { ReturnAddress, WarehouseSnapshot } from '#api/db/types.ts';

/**
 * A carrier that books parcels both ways, prints their label and reports tracking: inbound, the
 * customer's item to the warehouse (a prepaid label), and outbound, a declined offer's item from the
 * warehouse back to the customer. One implementation per file in this folder (`embedded.ts`,
 * `shiprocket.ts`, …), chosen by the CARRIER setting in `index.ts`; `none` means there is no carrier:
 * the customer ships on their own and the admin sends returns by hand.
 */

/** Tracking steps in the order a parcel moves; a later step never moves a parcel back (failed is terminal until a later delivery). */
export const TRACKING_STATUSES = ['picked_up', 'in_transit', 'out_for_delivery', 'delivered', 'failed'] as const;
export type TrackingStatus = (typeof TRACKING_STATUSES)[number];

export interface PickupAddress {
  name: string;
  /** digits as the form checked them (a 10-digit Indian mobile, or E.164) */
  phone: string;
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  state: string;
  postalCode: string;
}

export interface ReturnShipmentInput {
  requestId: string;
  /** requestReference(requestId): printed on the label and the slip */
  reference: string;
  pickup: PickupAddress;
  deliverTo: WarehouseSnapshot;
  productName: string;
  customerEmail: string;
}

/** A return going back: from the request's warehouse to the address the customer gave when declining. */
export interface OutboundShipmentInput {
  requestId: string;
  /** requestReference(requestId): the carrier's order reference and the label's */
  reference: string;
  /** where the courier collects it: the request's warehouse as it was approved */
  shipFrom: WarehouseSnapshot;
  /** the customer's return address (phone: theirs from the address, else their profile's, else null) */
  deliverTo: ReturnAddress;
  productName: string;
  customerEmail: string;
}

export interface CreatedShipment {
  /** the carrier's name as the request's shipping details show it (e.g. "Shiprocket", "SwapPoints Parcels") */
  carrierName: string;
  /** the AWB / tracking number */
  trackingNumber: string;
  /** the carrier's own id for the shipment (order id, shipment id) for later calls */
  carrierShipmentId: string;
  /** the carrier's label as PDF bytes, when it gives one (null: we print our own label page) */
  labelPdf: Uint8Array | null;
}

export interface TrackingEvent {
  trackingNumber: string;
  status: TrackingStatus;
  at: Date;
  /** unique per event at this carrier: the same event sent twice is recorded once */
  eventKey: string;
  /** the carrier's words for the step, shown on the timeline when present */
  description: string | null;
  location: string | null;
}

export interface Carrier {
  /** the CARRIER setting's value: 'embedded', 'shiprocket', … */
  readonly id: string;
  /** Books a prepaid label: a pickup at the customer's, delivered to the warehouse. */
  createReturnShipment(input: ReturnShipmentInput): Promise<CreatedShipment>;
  /** Books a declined offer's return: a pickup at the warehouse, delivered to the customer. */
  createOutboundShipment(input: OutboundShipmentInput): Promise<CreatedShipment>;
  /**
   * Checks a webhook's signature or token and turns its body into tracking events.
   * Throws CarrierAuthError when it is not authentic (the route answers 401, nothing recorded).
   */
  parseWebhook(headers: Headers, rawBody: string): TrackingEvent[];
  /** Asks the carrier for a shipment's events (polling when a webhook is late); a carrier without polling returns []. */
  track(trackingNumber: string): Promise<TrackingEvent[]>;
}

/**
 * How long a booking call holds its reservation of a shipment while the carrier answers: past it, the
 * call is taken for dead and another may book (or, for a return, the admin may record it by hand).
 */
export const BOOKING_LEASE_SECONDS = 120;

/** The carrier refused or could not be reached: the customer reads `message`, nothing is kept, a retry may work. */
export class CarrierUnavailable extends Error {
  constructor(
    message: string,
    /** 502 when the carrier answered with a refusal or garbage, 503 when it did not answer in time */
    readonly status: 502 | 503,
  ) {
    super(message);
  }
}

export class CarrierAuthError extends Error {}
