import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { Db } from '#api/db/connect.ts';
import type { ExchangeRequestRow } from '#api/db/types.ts';
import { badRequest, conflict, notFound } from '#api/lib/errors.ts';
import { cleanText } from '#api/lib/text.ts';
import { enqueueMail } from '#api/modules/mail/service.ts';
import { returnShippedMail } from '#api/modules/mail/templates.ts';
import { recordEvent, type Actor } from '#api/modules/requests/events.ts';
import { ADMIN_NOT_FOUND, findRequest, requestOr404 } from '#api/modules/requests/queries.ts';
import { requestTextTooLong, REQUEST_TEXT_LIMITS } from '#api/modules/requests/rules.ts';
import { languageOf } from '#api/modules/users/queries.ts';
import { queueWhatsApp } from '#api/modules/whatsapp/service.ts';
import { BOOKING_LEASE_SECONDS } from '#api/integrations/carriers/types.ts';
import { NO_RETURN_TO_SHIP, RETURN_ALREADY_SHIPPED, RETURN_BEING_BOOKED, RETURN_BODY } from './rules.ts';

/**
 * Sending a declined offer's item back (issue 24): the admin ships it by hand and records the carrier
 * and tracking number here, or books it with the carrier (shipments/returns.ts), which writes the same
 * update, timeline event and mail through writeReturnShipped inside its own booking transaction.
 */

export interface ReturnShipment {
  carrierName: string;
  trackingNumber: string;
}

/** The carrier and tracking number as sent, cleaned; 400 when one is missing or too long. */
export function readReturnShipment(input: { carrierName?: string | null; trackingNumber?: string | null }): ReturnShipment {
  const carrierName = cleanText(input.carrierName);
  const trackingNumber = cleanText(input.trackingNumber);
  if (!carrierName || !trackingNumber) throw badRequest(RETURN_BODY);
  if (carrierName.length > REQUEST_TEXT_LIMITS.carrierName) throw badRequest(requestTextTooLong('carrierName'));
  if (trackingNumber.length > REQUEST_TEXT_LIMITS.trackingNumber) throw badRequest(requestTextTooLong('trackingNumber'));
  return { carrierName, trackingNumber };
}

/**
 * In the caller's transaction: marks the return shipped (once: a conditional update on `returned_at is
 * null`), puts it on the timeline and queues the customer's mail, and WhatsApp message when they
 * opted in, with the tracking number. Undefined when no return waits. The request row is locked
 * first, as a carrier booking locks it before reserving its shipment, so the two serialise: a return the carrier is booking right now (a live
 * outbound reservation, read after the lock) is not also recorded by hand, and the reverse.
 */
export async function writeReturnShipped(trx: Db, ctx: AppContext, actor: Actor, requestId: string, shipment: ReturnShipment): Promise<ExchangeRequestRow | undefined> {
  await trx.selectFrom('exchange_requests').select('id').where('id', '=', requestId).forUpdate().executeTakeFirst();
  const row = await trx
    .updateTable('exchange_requests')
    .set({ return_carrier: shipment.carrierName, return_tracking_number: shipment.trackingNumber, returned_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', requestId)
    .where('return_choice', '=', 'return')
    .where('returned_at', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('shipments')
            .select('shipments.id')
            .whereRef('shipments.request_id', '=', 'exchange_requests.id')
            .where('shipments.direction', '=', 'outbound')
            .where('shipments.state', '=', 'booking')
            .where('shipments.reserved_at', '>', sql<Date>`now() - make_interval(secs => ${BOOKING_LEASE_SECONDS}::int)`),
        ),
      ),
    )
    .returningAll()
    .executeTakeFirst();
  if (!row) return undefined;
  await recordEvent(trx, {
    requestId: row.id,
    type: 'returned',
    actor,
    fromStatus: row.status,
    toStatus: row.status,
    note: `Sent back to the customer with ${shipment.carrierName}, tracking ${shipment.trackingNumber}`,
  });
  const lang = await languageOf(trx, row.user_id);
  await enqueueMail(trx, returnShippedMail(row.customer_email, ctx.settings.publicUrl, { id: row.id, productName: row.product_name, brand: row.brand }, shipment, lang));
  await queueWhatsApp(trx, ctx, {
    userId: row.user_id,
    template: 'return_shipped',
    params: { product: row.product_name, carrier: shipment.carrierName, trackingNumber: shipment.trackingNumber, link: `${ctx.settings.publicUrl}/exchange/${row.id}` },
  });
  return row;
}

/** Why a return cannot be marked shipped now, read after the update found nothing to change. */
export function returnRefusal(latest: ExchangeRequestRow | undefined): Error {
  if (!latest) return notFound(ADMIN_NOT_FOUND);
  if (latest.returned_at !== null) return conflict(RETURN_ALREADY_SHIPPED);
  return conflict(latest.return_choice === 'return' ? RETURN_BEING_BOOKED : NO_RETURN_TO_SHIP);
}

/** The admin's form: records a return shipped by hand (writeReturnShipped in a transaction of its own). */
export async function recordReturnShipment(ctx: AppContext, actor: Actor, id: string | undefined, shipment: ReturnShipment): Promise<ExchangeRequestRow> {
  const current = await requestOr404(ctx.db, id);
  const shipped = await ctx.db.transaction().execute((trx) => writeReturnShipped(trx, ctx, actor, current.id, shipment));
  if (!shipped) throw returnRefusal(await findRequest(ctx.db, current.id));
  ctx.mailer.kick();
  return shipped;
}
