import type { AppContext } from '#api/context.ts';
import type { ExchangeRequestRow, ReturnAddress, WarehouseSnapshot } from '#api/db/types.ts';
import type { PickupAddress } from '#api/integrations/carriers/types.ts';
import { conflict } from '#api/lib/errors.ts';
import { returnRefusal, writeReturnShipped } from '#api/modules/credit/returns.ts';
import { NO_RETURN_TO_SHIP, RETURN_ALREADY_SHIPPED } from '#api/modules/credit/rules.ts';
import { actorOf } from '#api/modules/requests/events.ts';
import { requestOr404 } from '#api/modules/requests/queries.ts';
import { requestReference } from '#api/modules/requests/reference.ts';
import { bookedShipmentOf, pickupPersonOf } from './queries.ts';
import { bookOnce, type BookingOutcome } from './reservation.ts';
import { RETURN_BOOKING_BUSY, RETURN_CARRIER_FAILED, RETURNS_BY_HAND } from './rules.ts';

/**
 * "Book the return" (issue 24): a declined offer's item the customer wants back, booked with the
 * carrier from the request's warehouse to the address the customer gave. Booked once however many
 * calls race (reservation.ts, direction 'outbound'); the booking's transaction marks the return
 * shipped through credit's writeReturnShipped, so the timeline, the mail and the WhatsApp message
 * are the admin form's own. The request row is locked while the reservation is made, as the admin
 * form locks it, so a return is never both booked and recorded by hand.
 */

/** The warehouse as the courier's pickup: its contact (or its name) and phone. */
function warehousePickup(w: WarehouseSnapshot): PickupAddress {
  return {
    name: w.contactPerson ?? w.name,
    phone: w.contactPhone ?? '',
    addressLine1: w.addressLine1,
    addressLine2: w.addressLine2,
    city: w.city,
    state: w.state,
    postalCode: w.postalCode,
  };
}

/** 409 unless the customer chose a return that is still to be shipped. */
function refuseUnreturnable(request: ExchangeRequestRow): asserts request is ExchangeRequestRow & { warehouse_snapshot: WarehouseSnapshot; return_address: ReturnAddress } {
  if (request.returned_at !== null) throw conflict(RETURN_ALREADY_SHIPPED);
  if (request.return_choice !== 'return' || !request.return_address || !request.warehouse_snapshot) throw conflict(NO_RETURN_TO_SHIP);
}

export async function bookReturn(ctx: AppContext, admin: { id: string; email: string }, id: string | undefined): Promise<BookingOutcome> {
  const carrier = ctx.carrier;
  if (!carrier) throw conflict(RETURNS_BY_HAND);
  const request = await requestOr404(ctx.db, id);
  const existing = await bookedShipmentOf(ctx.db, request.id, 'outbound');
  if (existing) return { shipment: existing, created: false };
  refuseUnreturnable(request);
  const warehouse = request.warehouse_snapshot;
  // a courier needs a phone at the door: the address's, else the one on the customer's profile
  const phone = request.return_address.phone ?? (await pickupPersonOf(ctx.db, request.user_id)).phone;
  const actor = actorOf(admin, 'admin');
  return bookOnce(ctx, {
    requestId: request.id,
    direction: 'outbound',
    carrier,
    pickup: warehousePickup(warehouse),
    busy: RETURN_BOOKING_BUSY,
    failed: RETURN_CARRIER_FAILED,
    lock: async (trx) => {
      await trx.selectFrom('exchange_requests').select('id').where('id', '=', request.id).forUpdate().executeTakeFirst();
    },
    check: async (trx) => {
      const latest = await trx.selectFrom('exchange_requests').selectAll().where('id', '=', request.id).executeTakeFirst();
      if (!latest || latest.return_choice !== 'return' || latest.returned_at !== null) throw returnRefusal(latest);
    },
    call: () =>
      carrier.createOutboundShipment({
        requestId: request.id,
        reference: requestReference(request.id),
        shipFrom: warehouse,
        deliverTo: { ...request.return_address, phone },
        productName: request.product_name,
        customerEmail: request.customer_email,
      }),
    record: async (trx, _row, created) => {
      const shipped = await writeReturnShipped(trx, ctx, actor, request.id, { carrierName: created.carrierName, trackingNumber: created.trackingNumber });
      if (!shipped) throw returnRefusal(await trx.selectFrom('exchange_requests').selectAll().where('id', '=', request.id).executeTakeFirst());
    },
  });
}
