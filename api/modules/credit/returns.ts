import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { ExchangeRequestRow } from '#api/db/types.ts';
import { badRequest, conflict, notFound } from '#api/lib/errors.ts';
import { cleanText } from '#api/lib/text.ts';
import { enqueueMail } from '#api/modules/mail/service.ts';
import { returnShippedMail } from '#api/modules/mail/templates.ts';
import { recordEvent, type Actor } from '#api/modules/requests/events.ts';
import { ADMIN_NOT_FOUND, findRequest, requestOr404 } from '#api/modules/requests/queries.ts';
import { requestTextTooLong, REQUEST_TEXT_LIMITS } from '#api/modules/requests/rules.ts';
import { languageOf } from '#api/modules/users/queries.ts';
import { NO_RETURN_TO_SHIP, RETURN_ALREADY_SHIPPED, RETURN_BODY } from './rules.ts';

/**
 * Sending a declined offer's item back (issue 24). Today the admin ships it by hand and records the
 * carrier and tracking number here; a carrier integration (api/integrations/carriers) would book the
 * shipment and call this same function with its answer.
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
 * Records that the return of a declined offer's item has been shipped (once: a conditional update
 * on `returned_at is null`), puts it on the timeline and mails the customer the tracking number.
 */
export async function recordReturnShipment(ctx: AppContext, actor: Actor, id: string | undefined, shipment: ReturnShipment): Promise<ExchangeRequestRow> {
  const current = await requestOr404(ctx.db, id);
  const shipped = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('exchange_requests')
      .set({ return_carrier: shipment.carrierName, return_tracking_number: shipment.trackingNumber, returned_at: sql`now()`, updated_at: sql`now()` })
      .where('id', '=', current.id)
      .where('return_choice', '=', 'return')
      .where('returned_at', 'is', null)
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
    return row;
  });
  if (!shipped) {
    const latest = await findRequest(ctx.db, current.id);
    if (!latest) throw notFound(ADMIN_NOT_FOUND);
    throw conflict(latest.returned_at !== null ? RETURN_ALREADY_SHIPPED : NO_RETURN_TO_SHIP);
  }
  ctx.mailer.kick();
  return shipped;
}
