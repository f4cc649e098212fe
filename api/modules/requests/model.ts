import { t, type UnwrapSchema } from 'elysia';
import type { TLiteral, TUnion } from '@sinclair/typebox';
import { CONDITIONS, EVENT_TYPES, PUSH_STATUSES, REQUEST_STATUSES, TRANSIT_STATUSES } from '#api/db/types.ts';
import { CreditGuide, StoredQuote } from '#api/modules/valuation/model.ts';
import { ADMIN_SORTS } from './rules.ts';
import { INVALID_CREDIT } from '#api/modules/credit/rules.ts';

/**
 * The JSON shapes of exchange requests, their timeline, warehouses and the credit history: the
 * one definition the routes validate against, the OpenAPI page documents and the pages import.
 */

/**
 * Formats are documented, not checked: the response is built by our own serialisers, and a
 * `format` keyword makes every response check run a format validator per field (measurably slow).
 */
const uuid = t.String({ description: 'a UUID' });
const dateTime = t.String({ description: 'an ISO 8601 date-time (UTC)' });
const date = t.String({ description: 'a yyyy-mm-dd date' });

const nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T) => t.Union([schema, t.Null()]);
const literals = <const T extends readonly string[]>(values: T, options: { error?: string } = {}) =>
  t.Union(
    values.map((v) => t.Literal(v)),
    options,
  ) as unknown as TUnion<{ -readonly [K in keyof T]: TLiteral<T[K]> }>;

export const ImageRef = t.Object({ url: t.String(), publicId: t.String() });

export const ShippingDetails = t.Object({
  carrierName: t.String(),
  trackingNumber: t.String(),
  /** yyyy-mm-dd */
  shippingDate: date,
  notes: nullable(t.String()),
});

const warehouseFields = {
  id: t.String(),
  name: t.String(),
  addressLine1: t.String(),
  addressLine2: nullable(t.String()),
  city: t.String(),
  state: t.String(),
  postalCode: t.String(),
  country: t.String(),
  contactPerson: nullable(t.String()),
  contactPhone: nullable(t.String()),
};

/** The approved warehouse's address as it was at approval. */
export const WarehouseInfo = t.Object(warehouseFields);

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
});

/** PUT …/credit answers the request with the outcome of the push to the shop. */
export const CreditedExchangeRequest = t.Object({ ...exchangeRequestFields, loyaltyPointsSuccess: t.Boolean() });

export const RequestCounts = t.Object({
  pending: t.Number(),
  awaitingShipping: t.Number(),
  inTransit: t.Number(),
  received: t.Number(),
});

export const CreditRecord = t.Object({
  id: t.Number(),
  /** the request's product; null once the request has been deleted (the ledger keeps its rows) */
  productName: nullable(t.String()),
  userId: t.String(),
  exchangeRequestId: t.String(),
  type: t.Literal('exchange_credit'),
  /** what was pushed to the shop: baseAmount + bonusAmount */
  amount: t.Number(),
  /** the admin's credit */
  baseAmount: t.Number(),
  /** a bonus campaign's addition */
  bonusAmount: t.Number(),
  currency: t.String(),
  /** the push to the shop succeeded */
  loyaltyPointsSuccess: t.Boolean(),
  createdAt: dateTime,
  pushStatus: literals(PUSH_STATUSES),
  pushError: nullable(t.String()),
  pushAttempts: t.Number(),
  pushedAt: nullable(dateTime),
  customerEmail: t.String(),
  transactionId: nullable(t.String()),
  note: nullable(t.String()),
});

export const Warehouse = t.Object({ ...warehouseFields, isActive: t.Boolean() });

export const Deleted = t.Object({ success: t.Literal(true), id: t.String() });

// ---- inputs ------------------------------------------------------------------------------------

/** Free text as a client may send it: a string, null or nothing. Trimmed and checked by the services. */
const text = (max: number | undefined, error: string) =>
  t.Optional(t.Union([t.String(max === undefined ? {} : { maxLength: max }), t.Null()], { error }));

export const FILL_REQUIRED_FIELDS = 'Please fill in all required fields';
export const NEED_AN_IMAGE = 'Please upload at least one image of the product';
export const FILL_SHIPPING_FIELDS = 'Please fill in all required shipping fields';
export { INVALID_CREDIT };

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
    adminFeedback: text(10_000, 'Admin feedback must be at most 10000 characters'),
    warehouseId: text(100, 'Please select a warehouse for shipping the product'),
  },
  { error: STATUS_BODY },
);

const TRANSIT_BODY = "Send transitStatus 'received' and an optional adminNote (at most 10000 characters).";
export const TransitBody = t.Object(
  { transitStatus: t.Optional(t.String({ maxLength: 50, error: TRANSIT_BODY })), adminNote: text(10_000, TRANSIT_BODY) },
  { error: TRANSIT_BODY },
);

export const CreditBody = t.Object(
  {
    creditAmount: t.Optional(t.Union([t.Number(), t.String({ maxLength: 50 }), t.Null()], { error: INVALID_CREDIT })),
    additionalFeedback: text(10_000, 'The note must be at most 10000 characters'),
    reason: text(2_000, 'The reason must be at most 2000 characters'),
    inspectionImages: t.Optional(
      t.Union([t.Array(t.Object({ url: t.String({ maxLength: 2048 }), publicId: t.String({ maxLength: 200 }) }), { maxItems: 5 }), t.Null()], {
        error: 'inspectionImages must be a list of at most 5 uploaded images, each { url, publicId }',
      }),
    ),
  },
  { error: INVALID_CREDIT },
);

const WAREHOUSE_BODY = 'Warehouse fields are text (an address line at most 500 characters) and isActive is true or false.';
export const WarehouseBody = t.Object(
  {
    name: text(200, WAREHOUSE_BODY),
    addressLine1: text(500, WAREHOUSE_BODY),
    addressLine2: text(500, WAREHOUSE_BODY),
    city: text(200, WAREHOUSE_BODY),
    state: text(200, WAREHOUSE_BODY),
    postalCode: text(50, WAREHOUSE_BODY),
    country: text(200, WAREHOUSE_BODY),
    contactPerson: text(200, WAREHOUSE_BODY),
    contactPhone: text(100, WAREHOUSE_BODY),
    isActive: t.Optional(t.Union([t.Boolean(), t.Null()], { error: WAREHOUSE_BODY })),
  },
  { error: WAREHOUSE_BODY },
);

const pagingFields = {
  page: t.Optional(t.Integer({ minimum: 1, maximum: 1_000_000, error: 'page must be a whole number of at least 1' })),
  pageSize: t.Optional(t.Integer({ minimum: 1, maximum: 100, error: 'pageSize must be a whole number from 1 to 100' })),
  q: t.Optional(t.String({ maxLength: 200, error: 'q must be at most 200 characters' })),
};
const statusFilter = t.Optional(literals(REQUEST_STATUSES, { error: 'status must be one of pending, approved, declined, completed' }));

export const PagingQuery = t.Object(pagingFields);
export const CustomerListQuery = t.Object({ ...pagingFields, status: statusFilter });
export const AdminListQuery = t.Object({
  ...pagingFields,
  status: statusFilter,
  sort: t.Optional(literals(ADMIN_SORTS, { error: `sort must be one of ${ADMIN_SORTS.join(', ')}` })),
  order: t.Optional(literals(['asc', 'desc'] as const, { error: 'order must be asc or desc' })),
  tab: t.Optional(t.Integer({ minimum: 0, maximum: 3, error: 'tab must be 0, 1, 2 or 3' })),
});
export const CountsQuery = t.Object({ q: pagingFields.q });
export const CreditHistoryQuery = t.Object({
  ...pagingFields,
  status: t.Optional(literals(PUSH_STATUSES, { error: 'status must be one of pending, success, failed' })),
});

export type ImageRef = UnwrapSchema<typeof ImageRef>;
export type ShippingDetails = UnwrapSchema<typeof ShippingDetails>;
export type WarehouseInfo = UnwrapSchema<typeof WarehouseInfo>;
export type ExchangeRequest = UnwrapSchema<typeof ExchangeRequest>;
export type AdminExchangeRequest = UnwrapSchema<typeof AdminExchangeRequest>;
export type RequestEvent = UnwrapSchema<typeof RequestEvent>;
export type ExchangeRequestDetail = UnwrapSchema<typeof ExchangeRequestDetail>;
export type AdminExchangeRequestDetail = UnwrapSchema<typeof AdminExchangeRequestDetail>;
export type CreditedExchangeRequest = UnwrapSchema<typeof CreditedExchangeRequest>;
export type RequestCounts = UnwrapSchema<typeof RequestCounts>;
export type CreditRecord = UnwrapSchema<typeof CreditRecord>;
export type Warehouse = UnwrapSchema<typeof Warehouse>;
export type CreateExchangeBody = UnwrapSchema<typeof CreateExchangeBody>;
export type ShippingBody = UnwrapSchema<typeof ShippingBody>;
export type StatusBody = UnwrapSchema<typeof StatusBody>;
export type TransitBody = UnwrapSchema<typeof TransitBody>;
export type CreditBody = UnwrapSchema<typeof CreditBody>;
export type WarehouseBody = UnwrapSchema<typeof WarehouseBody>;
