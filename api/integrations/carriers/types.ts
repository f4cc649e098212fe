import type { WarehouseSnapshot } from '#api/db/types.ts';

/**
 * A carrier that books return parcels (customer → warehouse), prints their label and reports
 * tracking. One implementation per file in this folder (`embedded.ts`, `shiprocket.ts`, …), chosen by
 * the CARRIER setting in `index.ts`; `none` means the customer ships on their own and there is no carrier.
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
  createReturnShipment(input: ReturnShipmentInput): Promise<CreatedShipment>;
  /**
   * Checks a webhook's signature or token and turns its body into tracking events.
   * Throws CarrierAuthError when it is not authentic (the route answers 401, nothing recorded).
   */
  parseWebhook(headers: Headers, rawBody: string): TrackingEvent[];
  /** Asks the carrier for a shipment's events (polling when a webhook is late); a carrier without polling returns []. */
  track(trackingNumber: string): Promise<TrackingEvent[]>;
}

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
