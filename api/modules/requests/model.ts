import { t, type UnwrapSchema } from 'elysia';
import { CONDITIONS, EVENT_TYPES, OFFER_STATUSES, PUSH_STATUSES, REQUEST_STATUSES, RETURN_CHOICES, TRANSIT_STATUSES } from '#api/db/types.ts';
import { CreditGuide, StoredQuote } from '#api/modules/valuation/model.ts';
import { date, dateTime, literals, nullable, optionalText as text, pagingFields, uuid } from '#api/lib/schema.ts';
import { RiskFlag } from '#api/modules/risk/model.ts';
import { WarehouseInfo } from '#api/modules/warehouses/model.ts';
import { ADMIN_SORTS, FILL_REQUIRED_FIELDS, FILL_SHIPPING_FIELDS, RECEIVE_CODE_MAX, SCAN_A_CODE, WAITING_FILTERS, WAREHOUSE_REQUIRED } from './rules.ts';

/**
 * The JSON shapes of exchange requests and their timeline: the one definition the routes validate
 * against, the OpenAPI page documents and the pages import.
 */

export const ImageRef = t.Object({ url: t.String(), publicId: t.String() });

export const ShippingDetails = t.Object({
  carrierName: t.String(),
  trackingNumber: t.String(),
  /** yyyy-mm-dd */
  shippingDate: date,
  notes: nullable(t.String()),
});

export const ReturnAddress = t.Object({
  name: t.String(),
  addressLine1: t.String(),
  addressLine2: nullable(t.String()),
  city: t.String(),
  state: t.String(),
  postalCode: t.String(),
  country: t.String(),
  phone: nullable(t.String()),
});

/** A revised offer: credit below the quote, waiting for (or given) the customer's answer. */
export const Offer = t.Object({
  /** what the customer gets on accepting: the admin's amount plus any campaign bonus */
  amount: t.Number(),
  /** the quote as the customer saw it at submission: estimate plus bonus */
  quotedAmount: t.Number(),
  reason: nullable(t.String()),
  /** no answer by then accepts the offer */
  respondBy: dateTime,
  status: literals(OFFER_STATUSES),
  decidedAt: nullable(dateTime),
  /** 'deadline': accepted because no answer came by respondBy */
  decidedBy: nullable(literals(['customer', 'deadline'] as const)),
  /** after a decline: send the item back, or recycle it with no credit */
  choice: nullable(literals(RETURN_CHOICES)),
  returnAddress: nullable(ReturnAddress),
  /** the return shipment, once the shop has sent it */
  returnShipment: nullable(t.Object({ carrierName: t.String(), trackingNumber: t.String(), shippedAt: dateTime })),
});

const exchangeRequestFields = {
  id: uuid,
  productName: t.String(),
  brand: t.String(),
  description: t.String(),
  condition: literals(CONDITIONS),
  images: t.Array(ImageRef),
  status: literals(REQUEST_STATUSES),
  transitStatus: nullable(literals(TRANSIT_STATUSES)),
  shippingDetails: nullable(ShippingDetails),
  trackingNumber: nullable(t.String()),
  warehouseId: nullable(t.String()),
  warehouseInfo: nullable(WarehouseInfo),
  creditAmount: t.Number(),
  /** when credit was assigned (0 included: an item taken for recycling); null until then */
  creditedAt: nullable(dateTime),
  currency: t.String(),
  adminFeedback: nullable(t.String()),
  /** the valuation guide's quote when the request was submitted; null when the guide had no match */
  quote: nullable(StoredQuote),
  /** why the credit is below the quote */
  creditReason: nullable(t.String()),
  /** when the photos were deleted, PHOTO_RETENTION_DAYS after the request closed; null while they are kept */
  photosRemovedAt: nullable(dateTime),
  /** a credit below the quote waits here for the customer's answer (null when none was made) */
  offer: nullable(Offer),
  createdAt: dateTime,
  updatedAt: dateTime,
};

/** What a detail page shows of the valuation: how the credit was made up and the inspection photos. */
const valuationDetailFields = {
  creditBreakdown: nullable(t.Object({ base: t.Number(), bonus: t.Number(), campaignName: nullable(t.String()) })),
  inspectionImages: t.Array(ImageRef),
};

export const ExchangeRequest = t.Object(exchangeRequestFields);
export const AdminExchangeRequest = t.Object({ ...exchangeRequestFields, userEmail: t.String() });
/** A request received at Admin → Receive: shown with its photos and its packing-slip reference (SP-…). */
export const ReceivedRequest = t.Object({ ...exchangeRequestFields, userEmail: t.String(), reference: t.String() });

/** A request its customer cancelled: what is kept of it after the delete (no images, no status). */
export const CancelledRequest = t.Object({
  /** the id the request had */
  id: uuid,
  productName: t.String(),
  brand: t.String(),
  condition: literals(CONDITIONS),
  /** when the request was submitted */
  createdAt: dateTime,
  cancelledAt: dateTime,
});

export const RequestEvent = t.Object({
  id: t.Number(),
  type: literals(EVENT_TYPES),
  actorEmail: nullable(t.String()),
  actorRole: literals(['customer', 'admin', 'system'] as const),
  fromStatus: nullable(t.String()),
  toStatus: nullable(t.String()),
  note: nullable(t.String()),
  createdAt: dateTime,
});

/** the customer's store-credit balance at the shop (§3); null when the shop could not be reached */
const balanceFields = { totalLoyaltyPoints: nullable(t.Number()), totalShopifyCredit: nullable(t.Number()) };

export const ExchangeRequestDetail = t.Object({
  ...exchangeRequestFields,
  ...valuationDetailFields,
  ...balanceFields,
  events: t.Array(RequestEvent),
  /** where the push of this request's credit to the shop stands; null before credit is assigned */
  creditPushStatus: t.Optional(nullable(literals(PUSH_STATUSES))),
});

export const AdminExchangeRequestDetail = t.Object({
  ...exchangeRequestFields,
  userEmail: t.String(),
  events: t.Array(RequestEvent),
  customerName: t.String(),
  customerEmail: t.String(),
  ...balanceFields,
  ...valuationDetailFields,
  /** the guide's entry, multipliers and campaign, for the suggested credit */
  creditGuide: CreditGuide,
  /** why this request needs a closer look (admins only; the customer's detail never has it) */
  riskFlags: t.Array(RiskFlag),
});

/** PUT …/credit answers the request with the outcome of the push to the shop. */
export const CreditedExchangeRequest = t.Object({ ...exchangeRequestFields, loyaltyPointsSuccess: t.Boolean() });

export const RequestCounts = t.Object({
  pending: t.Number(),
  awaitingShipping: t.Number(),
  inTransit: t.Number(),
  received: t.Number(),
});

// ---- inputs ------------------------------------------------------------------------------------


export const CreateExchangeBody = t.Object(
  {
    productName: text(undefined, FILL_REQUIRED_FIELDS),
    brand: text(undefined, FILL_REQUIRED_FIELDS),
    description: text(undefined, FILL_REQUIRED_FIELDS),
    condition: text(undefined, FILL_REQUIRED_FIELDS),
    images: t.Optional(
      t.Union([t.Array(t.Object({ url: t.String({ maxLength: 2048 }), publicId: t.String({ maxLength: 200 }) }), { maxItems: 50 }), t.Null()], {
        error: 'images must be a list of uploaded images, each { url, publicId }',
      }),
    ),
  },
  { error: FILL_REQUIRED_FIELDS },
);

export const ShippingBody = t.Object(
  {
    carrierName: text(undefined, FILL_SHIPPING_FIELDS),
    trackingNumber: text(undefined, FILL_SHIPPING_FIELDS),
    shippingDate: text(undefined, FILL_SHIPPING_FIELDS),
    notes: text(undefined, FILL_SHIPPING_FIELDS),
  },
  { error: FILL_SHIPPING_FIELDS },
);

const STATUS_BODY = 'Send a status (pending, approved, declined or completed), an optional adminFeedback and, to approve, a warehouseId.';
export const StatusBody = t.Object(
  {
    status: t.Optional(t.String({ maxLength: 50, error: STATUS_BODY })),
    adminFeedback: text(undefined, STATUS_BODY),
    warehouseId: text(100, WAREHOUSE_REQUIRED),
  },
  { error: STATUS_BODY },
);

const TRANSIT_BODY = "Send transitStatus 'received' and an optional adminNote (at most 10000 characters).";
export const TransitBody = t.Object(
  { transitStatus: t.Optional(t.String({ maxLength: 50, error: TRANSIT_BODY })), adminNote: text(undefined, TRANSIT_BODY) },
  { error: TRANSIT_BODY },
);

export const ReceiveBody = t.Object(
  {
    code: t.String({ minLength: 1, maxLength: RECEIVE_CODE_MAX, error: SCAN_A_CODE, description: 'a tracking number or a packing slip’s reference (SP-…), as scanned or typed' }),
    adminNote: text(undefined, SCAN_A_CODE),
  },
  { error: SCAN_A_CODE },
);

const statusFilter = t.Optional(literals(REQUEST_STATUSES, { error: 'status must be one of pending, approved, declined, completed' }));

export const CustomerListQuery = t.Object({ ...pagingFields, status: statusFilter });
export const AdminListQuery = t.Object({
  ...pagingFields,
  status: statusFilter,
  sort: t.Optional(literals(ADMIN_SORTS, { error: `sort must be one of ${ADMIN_SORTS.join(', ')}` })),
  order: t.Optional(literals(['asc', 'desc'] as const, { error: 'order must be asc or desc' })),
  tab: t.Optional(t.Integer({ minimum: 0, maximum: 3, error: 'tab must be 0, 1, 2 or 3' })),
  /** offers waiting for the customer's answer, or declined offers' items to send back */
  waiting: t.Optional(literals(Object.keys(WAITING_FILTERS) as (keyof typeof WAITING_FILTERS)[], { error: 'waiting must be offers or returns' })),
  flagged: t.Optional(t.Boolean({ description: 'true: only requests with a risk flag (a duplicate photo)', error: 'flagged must be true or false' })),
});
/** How many requests each "waiting" filter of the queue holds. */
export const WaitingCounts = t.Object({ offersWaiting: t.Number(), returnsToShip: t.Number() });
export const CountsQuery = t.Object({ q: pagingFields.q });

export type ImageRef = UnwrapSchema<typeof ImageRef>;
export type ShippingDetails = UnwrapSchema<typeof ShippingDetails>;
export type Offer = UnwrapSchema<typeof Offer>;
export type ReturnAddress = UnwrapSchema<typeof ReturnAddress>;
export type ExchangeRequest = UnwrapSchema<typeof ExchangeRequest>;
export type AdminExchangeRequest = UnwrapSchema<typeof AdminExchangeRequest>;
export type RequestEvent = UnwrapSchema<typeof RequestEvent>;
export type CancelledRequest = UnwrapSchema<typeof CancelledRequest>;
export type ExchangeRequestDetail = UnwrapSchema<typeof ExchangeRequestDetail>;
export type AdminExchangeRequestDetail = UnwrapSchema<typeof AdminExchangeRequestDetail>;
export type CreditedExchangeRequest = UnwrapSchema<typeof CreditedExchangeRequest>;
export type RequestCounts = UnwrapSchema<typeof RequestCounts>;
export type WaitingCounts = UnwrapSchema<typeof WaitingCounts>;
export type CreateExchangeBody = UnwrapSchema<typeof CreateExchangeBody>;
export type ShippingBody = UnwrapSchema<typeof ShippingBody>;
export type StatusBody = UnwrapSchema<typeof StatusBody>;
export type TransitBody = UnwrapSchema<typeof TransitBody>;
export type ReceiveBody = UnwrapSchema<typeof ReceiveBody>;
export type ReceivedRequest = UnwrapSchema<typeof ReceivedRequest>;
