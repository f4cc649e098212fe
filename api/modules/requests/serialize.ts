import type { CancelledRequestsTable, ExchangeRequestRow, RequestEvent as RequestEventRow } from '#api/db/types.ts';
import type { Selectable } from 'kysely';
import { storedQuote } from '#api/modules/valuation/quote.ts';
import type { CancelledRequest, ExchangeRequest, ImageRef, Offer, RequestEvent } from './model.ts';

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

/** A request row as the API's Exchange request JSON (camelCase, money as a number). */
export function toExchangeRequest(row: ExchangeRequestRow, images: ImageRef[]): ExchangeRequest {
  const hasShipping = row.shipping_carrier !== null && row.shipping_tracking_number !== null && row.shipping_date !== null;
  return {
    id: row.id,
    productName: row.product_name,
    brand: row.brand,
    description: row.description,
    condition: row.condition,
    images,
    status: row.status,
    transitStatus: row.transit_status,
    shippingDetails: hasShipping
      ? {
          carrierName: row.shipping_carrier!,
          trackingNumber: row.shipping_tracking_number!,
          shippingDate: row.shipping_date!,
          notes: row.shipping_notes,
        }
      : null,
    trackingNumber: row.shipping_tracking_number,
    warehouseId: row.warehouse_id,
    warehouseInfo: row.warehouse_snapshot
      ? {
          id: row.warehouse_snapshot.id,
          name: row.warehouse_snapshot.name,
          addressLine1: row.warehouse_snapshot.addressLine1,
          addressLine2: row.warehouse_snapshot.addressLine2 ?? null,
          city: row.warehouse_snapshot.city,
          state: row.warehouse_snapshot.state,
          postalCode: row.warehouse_snapshot.postalCode,
          country: row.warehouse_snapshot.country,
          contactPerson: row.warehouse_snapshot.contactPerson ?? null,
          contactPhone: row.warehouse_snapshot.contactPhone ?? null,
        }
      : null,
    creditAmount: Number(row.credit_amount),
    creditedAt: row.credited_at === null ? null : iso(row.credited_at),
    currency: row.currency,
    adminFeedback: row.admin_feedback,
    quote: storedQuote(row),
    creditReason: row.credit_reason,
    photosRemovedAt: row.photos_removed_at === null ? null : iso(row.photos_removed_at),
    offer: toOffer(row),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** The request's revised offer, or null when none was made. */
export function toOffer(row: ExchangeRequestRow): Offer | null {
  if (row.offer_status === null || row.offer_respond_by === null) return null;
  return {
    amount: Number(row.offer_amount),
    quotedAmount: Number(row.offer_quoted_amount),
    reason: row.offer_reason,
    respondBy: iso(row.offer_respond_by),
    status: row.offer_status,
    decidedAt: row.offer_decided_at === null ? null : iso(row.offer_decided_at),
    decidedBy: row.offer_decided_by,
    choice: row.return_choice,
    returnAddress: row.return_address ?? null,
    returnShipment:
      row.returned_at !== null && row.return_carrier !== null && row.return_tracking_number !== null
        ? { carrierName: row.return_carrier, trackingNumber: row.return_tracking_number, shippedAt: iso(row.returned_at) }
        : null,
  };
}

/**
 * A timeline entry. Customers see who acted only for their own actions: an admin's email is staff
 * information, so the customer's timeline shows the role alone.
 */
export function toRequestEvent(row: RequestEventRow, viewer: 'customer' | 'admin'): RequestEvent {
  return {
    id: Number(row.id),
    type: row.type,
    actorEmail: viewer === 'admin' || row.actor_role === 'customer' ? row.actor_email : null,
    actorRole: row.actor_role,
    fromStatus: row.from_status,
    toStatus: row.to_status,
    note: row.note,
    createdAt: iso(row.created_at),
  };
}

/** What is kept of a cancelled request, as the API's JSON. */
export function toCancelledRequest(row: Selectable<CancelledRequestsTable>): CancelledRequest {
  return {
    id: row.request_id,
    productName: row.product_name,
    brand: row.brand,
    condition: row.condition,
    createdAt: iso(row.created_at),
    cancelledAt: iso(row.cancelled_at),
  };
}
