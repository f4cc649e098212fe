/**
 * Prepaid labels and tracking: the rules and messages the API enforces and the pages and CLI
 * repeat. Plain TypeScript, no framework or database import.
 */
import { tooLongMessage } from '#api/lib/text.ts';
import { TRACKING_STATUSES, type TrackingStatus } from '#api/integrations/carriers/types.ts';
import type { ShipmentDirection } from '#api/db/types.ts';
import { addressProblem } from '#api/modules/warehouses/rules.ts';

export { TRACKING_STATUSES, type TrackingStatus };

/** The pickup form's fields as it labels them. */
export const PICKUP_FIELD_LABELS = {
  name: 'Name',
  phone: 'Phone',
  addressLine1: 'Address Line 1',
  addressLine2: 'Address Line 2',
  city: 'City',
  state: 'State',
  postalCode: 'Postal Code',
} as const;
export type PickupField = keyof typeof PICKUP_FIELD_LABELS;
export const PICKUP_FIELDS = Object.keys(PICKUP_FIELD_LABELS) as PickupField[];
export const REQUIRED_PICKUP_FIELDS: readonly PickupField[] = ['name', 'phone', 'addressLine1', 'city', 'state', 'postalCode'];

/** The most characters each field takes (a carrier's own limits are about these). */
export const PICKUP_LIMITS: Record<PickupField, number> = { name: 100, phone: 20, addressLine1: 200, addressLine2: 200, city: 100, state: 100, postalCode: 12 };

export const FILL_PICKUP_FIELDS = 'Please fill in the pickup address: name, phone, address, city, state and postal code.';
export const missingPickupFields = (fields: readonly PickupField[]) => `Please fill in all required fields: ${fields.map((f) => PICKUP_FIELD_LABELS[f]).join(', ')}`;
export const pickupFieldTooLong = (field: PickupField) => tooLongMessage(PICKUP_FIELD_LABELS[field], PICKUP_LIMITS[field]);

/** The postal code and phone checked as a warehouse's are, in the shop's country, named as this form labels them. */
export function pickupAddressProblem(input: { postalCode: string; phone: string }, country: string): { field: PickupField; message: string } | null {
  const problem = addressProblem({ postalCode: input.postalCode, country, contactPhone: input.phone });
  if (!problem) return null;
  return problem.field === 'contactPhone'
    ? { field: 'phone', message: problem.message.replace(/^Contact Phone/, 'Phone') }
    : { field: 'postalCode', message: problem.message };
}

export const LABELS_NOT_OFFERED = 'Prepaid labels are not offered by this shop. Please ship the item yourself and add the shipping details.';
export const LABEL_NEEDS_APPROVAL = 'A prepaid label can be made once the request is approved.';
export const ALREADY_SHIPPED = 'This item has already been shipped, so it needs no prepaid label.';
export const NO_LABEL = 'No prepaid label has been made for this request.';
export const SLIP_NEEDS_APPROVAL = 'A packing slip can be printed once the request is approved.';
export const LABEL_BUSY = 'Your label is still being made. Please try again in a minute.';
export const UNKNOWN_CARRIER = 'No such carrier is configured here.';
export const CARRIER_FAILED = 'The courier could not book your pickup just now. Please try again in a few minutes.';
/** The shipping notes a courier's first pickup gives the request (the customer reads them). */
export const PICKED_UP_NOTE = 'Prepaid label: picked up by the courier.';
export { CARRIER_MESSAGES } from '#api/integrations/carriers/messages.ts';

// a declined offer's item sent back through the carrier (issue 24): the admin's words
export const RETURNS_BY_HAND = 'No carrier is configured here, so returns are shipped by hand: send the item, then record its carrier and tracking number.';
export const RETURN_BOOKING_BUSY = 'The return is still being booked with the carrier. Please try again in a minute.';
export const RETURN_CARRIER_FAILED = 'The courier could not book the return just now. Please try again in a few minutes, or ship it yourself and record its tracking number.';
export const NO_RETURN_LABEL = 'No return has been booked with the carrier for this request.';

/** Each step as the request page and the timeline name it. */
export const TRACKING_LABELS: Record<TrackingStatus, string> = {
  picked_up: 'Picked up',
  in_transit: 'In transit',
  out_for_delivery: 'Out for delivery',
  delivered: 'Delivered to the warehouse',
  failed: 'Delivery failed',
};

/** A return's steps (warehouse → customer) as the request pages and the timeline name them. */
export const RETURN_TRACKING_LABELS: Record<TrackingStatus, string> = {
  picked_up: 'Collected from the warehouse',
  in_transit: 'On its way back',
  out_for_delivery: 'Out for delivery',
  delivered: 'Delivered to the return address',
  failed: 'Delivery failed',
};

export const trackingLabel = (direction: ShipmentDirection, status: TrackingStatus) => (direction === 'outbound' ? RETURN_TRACKING_LABELS : TRACKING_LABELS)[status];

/**
 * How far along a parcel is: a later event moves it only forward. A failure outranks the steps
 * before delivery (it is where the parcel stopped) and only a delivery moves past it.
 */
const RANK: Record<TrackingStatus, number> = { picked_up: 1, in_transit: 2, out_for_delivery: 3, failed: 4, delivered: 5 };
export const trackingRank = (status: TrackingStatus) => RANK[status];
/** Statuses that mean the carrier has the parcel (so the request is shipped). */
export const HAS_PARCEL: readonly TrackingStatus[] = ['picked_up', 'in_transit', 'out_for_delivery', 'delivered'];

export function isTrackingStatus(value: string): value is TrackingStatus {
  return (TRACKING_STATUSES as readonly string[]).includes(value);
}
