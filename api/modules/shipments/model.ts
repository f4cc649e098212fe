import { t, type UnwrapSchema } from 'elysia';
import { dateTime, literals, nullable } from '#api/lib/schema.ts';
import { FILL_PICKUP_FIELDS, TRACKING_STATUSES } from './rules.ts';

// Lengths are checked by the service, so the message names the field as the form does.
const field = () => t.Optional(t.Union([t.String({ maxLength: 10_000 }), t.Null()], { error: FILL_PICKUP_FIELDS }));

export const LabelBody = t.Object(
  {
    name: field(),
    phone: field(),
    addressLine1: field(),
    addressLine2: field(),
    city: field(),
    state: field(),
    postalCode: field(),
  },
  { error: FILL_PICKUP_FIELDS },
);
export type LabelBody = UnwrapSchema<typeof LabelBody>;

const suggested = (description: string) => nullable(t.String({ description }));

export const PickupSuggestion = t.Object({
  name: suggested("the name on the shop's default address, else the customer's name as the shop knows it"),
  phone: suggested("the address's phone, else the customer's own (the shop's, then their profile's)"),
  addressLine1: suggested('the default address, first line'),
  addressLine2: suggested('its second line'),
  city: suggested('its city'),
  state: suggested("its state's name (Karnataka), made from the shop's province code"),
  postalCode: suggested('its PIN or postal code'),
  fromShop: t.Boolean({ description: "the address fields come from the shop's default address (in the shop's country); false: at most the name and phone are filled in" }),
});
export type PickupSuggestion = UnwrapSchema<typeof PickupSuggestion>;

export const Label = t.Object({
  carrier: t.String({ description: 'the carrier as the shipping details name it' }),
  trackingNumber: t.String({ description: 'the AWB' }),
  labelUrl: t.String({ description: 'GET it for the label and packing slip as one PDF' }),
});
export type Label = UnwrapSchema<typeof Label>;

export const TrackingStep = t.Object({
  status: literals(TRACKING_STATUSES),
  at: dateTime,
  description: nullable(t.String()),
  location: nullable(t.String()),
});
export type TrackingStep = UnwrapSchema<typeof TrackingStep>;

export const Shipment = t.Object({
  carrier: t.String(),
  trackingNumber: t.String(),
  labelUrl: t.String(),
  status: nullable(literals(TRACKING_STATUSES)),
  statusAt: nullable(dateTime),
  createdAt: dateTime,
  pickup: t.Object({
    name: t.String(),
    phone: t.String(),
    addressLine1: t.String(),
    addressLine2: nullable(t.String()),
    city: t.String(),
    state: t.String(),
    postalCode: t.String(),
  }),
  events: t.Array(TrackingStep, { description: 'each tracking step once, in the order they happened' }),
});
export type Shipment = UnwrapSchema<typeof Shipment>;

/** A declined offer's item sent back through the carrier: where it is on its way to the customer. */
export const ReturnParcel = t.Object({
  carrier: t.String(),
  trackingNumber: t.String({ description: 'the AWB' }),
  /** the latest step; null until the courier collects it */
  status: nullable(literals(TRACKING_STATUSES)),
  statusAt: nullable(dateTime),
  createdAt: dateTime,
  events: t.Array(TrackingStep, { description: 'each tracking step once, in the order they happened' }),
});
export type ReturnParcel = UnwrapSchema<typeof ReturnParcel>;

export const RequestShipment = t.Object({
  labelsOffered: t.Boolean({ description: 'a carrier is configured, so the customer may ask for a prepaid label (and an admin may book a return)' }),
  pickupName: nullable(t.String({ description: "the customer's name as the shop knows it, to fill in the pickup form" })),
  shipment: nullable(Shipment),
  /** a declined offer's return booked with the carrier (one sent by hand is in the request's offer.returnShipment only) */
  returnShipment: nullable(ReturnParcel),
});
export type RequestShipment = UnwrapSchema<typeof RequestShipment>;

export const ReturnBooking = t.Object({
  carrier: t.String({ description: 'the carrier as the return shipment names it' }),
  trackingNumber: t.String({ description: 'the AWB' }),
  labelUrl: t.String({ description: 'GET it (admins) for the label to stick on the parcel, as PDF' }),
});
export type ReturnBooking = UnwrapSchema<typeof ReturnBooking>;

export const CarrierEventsAnswer = t.Object({
  received: t.Integer({ description: 'events in the body' }),
  recorded: t.Integer({ description: 'events new to us (a repeated one is recorded once)' }),
});
