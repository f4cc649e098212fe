import { t, type UnwrapSchema } from 'elysia';
import { PUSH_STATUSES, RETURN_CHOICES } from '#api/db/types.ts';
import { dateTime, literals, nullable, optionalText as text, pagingFields } from '#api/lib/schema.ts';
import { DECLINE_BODY, INVALID_CREDIT, RETURN_ADDRESS_FIELDS, RETURN_ADDRESS_NEEDED, RETURN_BODY } from './rules.ts';

/** The JSON shapes of store credit: the balance, the credit an admin assigns, the credit history. */

export const CreditResponse = t.Object({ creditAmount: t.Number(), currency: t.String() });

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

export const CreditBody = t.Object(
  {
    creditAmount: t.Optional(t.Union([t.Number(), t.String({ maxLength: 50 }), t.Null()], { error: INVALID_CREDIT })),
    additionalFeedback: text(undefined, 'The note must be text or null'),
    reason: text(undefined, 'reason must be text or null'),
    inspectionImages: t.Optional(
      t.Union([t.Array(t.Object({ url: t.String({ maxLength: 2048 }), publicId: t.String({ maxLength: 200 }) }), { maxItems: 5 }), t.Null()], {
        error: 'inspectionImages must be a list of at most 5 uploaded images, each { url, publicId }',
      }),
    ),
  },
  { error: INVALID_CREDIT },
);

export const CreditHistoryQuery = t.Object({
  ...pagingFields,
  status: t.Optional(literals(PUSH_STATUSES, { error: 'status must be one of pending, success, failed' })),
});

/** The CSV export's filter: the history's, without paging. */
export const CreditExportQuery = t.Object({
  q: pagingFields.q,
  status: t.Optional(t.Union(PUSH_STATUSES.map((s) => t.Literal(s)), { error: 'status must be one of pending, success, failed' })),
});

/** POST /api/exchange/{id}/offer/decline: send it back (to this address) or recycle it. */
export const DeclineOfferBody = t.Object(
  {
    choice: literals(RETURN_CHOICES, { error: DECLINE_BODY }),
    address: t.Optional(
      t.Union(
        [t.Object(Object.fromEntries(Object.entries(RETURN_ADDRESS_FIELDS).map(([field, spec]) => [field, text(spec.max, RETURN_ADDRESS_NEEDED)])) as Record<keyof typeof RETURN_ADDRESS_FIELDS, ReturnType<typeof text>>), t.Null()],
        { error: RETURN_ADDRESS_NEEDED },
      ),
    ),
  },
  { error: DECLINE_BODY },
);

/** POST /api/admin/exchange-requests/{id}/return: the return shipment the admin sent. */
export const ReturnShipmentBody = t.Object(
  { carrierName: text(undefined, RETURN_BODY), trackingNumber: text(undefined, RETURN_BODY) },
  { error: RETURN_BODY },
);

export type CreditResponse = UnwrapSchema<typeof CreditResponse>;
export type CreditRecord = UnwrapSchema<typeof CreditRecord>;
export type CreditBody = UnwrapSchema<typeof CreditBody>;
export type DeclineOfferBody = UnwrapSchema<typeof DeclineOfferBody>;
export type ReturnShipmentBody = UnwrapSchema<typeof ReturnShipmentBody>;
