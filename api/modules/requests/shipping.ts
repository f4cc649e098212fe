import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { Db } from '#api/db/connect.ts';
import type { ExchangeRequestRow } from '#api/db/types.ts';
import { badRequest, conflict, notFound } from '#api/lib/errors.ts';
import { recordEvent, type Actor } from './events.ts';
import { cleanText, isCalendarDate } from '#api/lib/text.ts';
import type { ShippingBody } from './model.ts';
import {
  FILL_SHIPPING_FIELDS,
  FUTURE_SHIPPING_DATE,
  isFutureDay,
  NO_SHIPPING_TO_CORRECT,
  REQUEST_TEXT_LIMITS,
  requestTextTooLong,
  SHIPPING_LOCKED,
  SHIPPING_NEEDS_APPROVAL,
  STEPS,
} from './rules.ts';
import { ADMIN_NOT_FOUND, findRequest, ownRequestOr404, requestOr404 } from './queries.ts';
import { stateCondition } from './state-sql.ts';
import { emitRequestEvent } from './webhook.ts';


export interface ShippingInput {
  carrierName: string;
  trackingNumber: string;
  shippingDate: string;
  notes: string | null;
}

/** The shipping form as the rules accept it: the spec's required fields, lengths, and no date after today in the shop's time zone. */
export function readShipping(ctx: AppContext, input: ShippingBody): ShippingInput {
  const carrierName = cleanText(input.carrierName);
  const trackingNumber = cleanText(input.trackingNumber);
  const shippingDate = cleanText(input.shippingDate);
  const notes = cleanText(input.notes);
  if (!carrierName || !trackingNumber || !shippingDate || !isCalendarDate(shippingDate)) throw badRequest(FILL_SHIPPING_FIELDS);
  for (const [field, value] of [['carrierName', carrierName], ['trackingNumber', trackingNumber], ['notes', notes ?? '']] as const) {
    if (value.length > REQUEST_TEXT_LIMITS[field]) throw badRequest(requestTextTooLong(field));
  }
  if (isFutureDay(shippingDate, ctx.settings.shopTimeZone)) throw badRequest(FUTURE_SHIPPING_DATE);
  return { carrierName, trackingNumber, shippingDate, notes };
}

const shippingNote = (f: ShippingInput) => `${f.carrierName}, tracking ${f.trackingNumber}, shipped on ${f.shippingDate}${f.notes ? `. ${f.notes}` : ''}`;

/**
 * Gives an approved request its shipping details, so it is in transit: the customer's form, and a
 * carrier's first pickup (shipments/tracking.ts) alike. A conditional update, so of two racing only
 * one applies; undefined when the request was not waiting for shipping details. Run it in the
 * transaction that makes the change.
 */
export async function recordShipping(trx: Db, row: ExchangeRequestRow, fields: ShippingInput, actor: Actor): Promise<ExchangeRequestRow | undefined> {
  const changed = await trx
    .updateTable('exchange_requests')
    .set({
      shipping_carrier: fields.carrierName,
      shipping_tracking_number: fields.trackingNumber,
      shipping_date: fields.shippingDate,
      shipping_notes: fields.notes,
      transit_status: 'shipped',
      shipped_at: sql<Date>`now()`,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', row.id)
    .where('user_id', '=', row.user_id)
    .where((eb) => stateCondition(eb, STEPS.ship))
    .returningAll()
    .executeTakeFirst();
  if (!changed) return undefined;
  const note = `${fields.carrierName}, tracking ${fields.trackingNumber}, shipped on ${fields.shippingDate}${fields.notes ? `. ${fields.notes}` : ''}`;
  await recordEvent(trx, { requestId: row.id, type: 'shipped', actor, fromStatus: row.transit_status, toStatus: 'shipped', note });
  await emitRequestEvent(trx, 'request.shipped', changed);
  return changed;
}

/**
 * PUT /api/exchange/{id}/shipping: the owner corrects the shipping details they gave, until the
 * item is received (a conditional update: a correction racing the admin's 'received' loses).
 */
export async function correctShipping(ctx: AppContext, user: { id: string; email: string }, id: string | undefined, input: ShippingBody): Promise<ExchangeRequestRow> {
  const row = await ownRequestOr404(ctx.db, user.id, id);
  const fields = readShipping(ctx, input);
  const updated = await ctx.db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable('exchange_requests')
      .set({
        shipping_carrier: fields.carrierName,
        shipping_tracking_number: fields.trackingNumber,
        shipping_date: fields.shippingDate,
        shipping_notes: fields.notes,
        updated_at: sql<Date>`now()`,
      })
      .where('id', '=', row.id)
      .where('user_id', '=', user.id)
      .where('status', '=', 'approved')
      .where('shipping_carrier', 'is not', null)
      .where('transit_status', '=', 'shipped')
      .returningAll()
      .executeTakeFirst();
    if (!changed) return undefined;
    await recordEvent(trx, {
      requestId: row.id,
      type: 'shipped',
      actor: { id: user.id, email: user.email, role: 'customer' },
      fromStatus: 'shipped',
      toStatus: 'shipped',
      note: `Corrected: ${shippingNote(fields)}`,
    });
    return changed;
  });
  if (updated) return updated;
  const latest = await ownRequestOr404(ctx.db, user.id, id);
  if (latest.status === 'approved' && latest.shipping_carrier === null) throw conflict(NO_SHIPPING_TO_CORRECT);
  if (latest.status !== 'approved' && latest.status !== 'completed') throw conflict(SHIPPING_NEEDS_APPROVAL);
  throw conflict(SHIPPING_LOCKED);
}

/**
 * PUT /api/admin/exchange-requests/{id}/shipping: an admin records the shipping details of a parcel
 * that came without them (issue 27), with the customer's fields and checks, in the states the
 * customer may give or correct them (approved, not yet received). The item is then shipped, so the
 * usual 'received' works; the timeline's `shipping_entered` says an admin entered them.
 */
export async function enterShipping(ctx: AppContext, actor: Actor, id: string | undefined, input: ShippingBody): Promise<ExchangeRequestRow> {
  const row = await requestOr404(ctx.db, id);
  const fields = readShipping(ctx, input);
  const details = {
    shipping_carrier: fields.carrierName,
    shipping_tracking_number: fields.trackingNumber,
    shipping_date: fields.shippingDate,
    shipping_notes: fields.notes,
    updated_at: sql<Date>`now()`,
  };
  const updated = await ctx.db.transaction().execute(async (trx) => {
    // the customer's two states, each a conditional update, so a race with the customer's own form
    // has one first entry: approved without details (STEPS.ship, the item becomes shipped) ...
    const first = await trx
      .updateTable('exchange_requests')
      .set({ ...details, transit_status: 'shipped', shipped_at: sql<Date>`now()` })
      .where('id', '=', row.id)
      .where((eb) => stateCondition(eb, STEPS.ship))
      .returningAll()
      .executeTakeFirst();
    // ... or shipped and not yet received (a correction)
    const changed =
      first ??
      (await trx
        .updateTable('exchange_requests')
        .set(details)
        .where('id', '=', row.id)
        .where('status', '=', 'approved')
        .where('shipping_carrier', 'is not', null)
        .where('transit_status', '=', 'shipped')
        .returningAll()
        .executeTakeFirst());
    if (!changed) return undefined;
    await recordEvent(trx, { requestId: row.id, type: 'shipping_entered', actor, fromStatus: first ? row.transit_status : 'shipped', toStatus: 'shipped', note: shippingNote(fields) });
    if (first) await emitRequestEvent(trx, 'request.shipped', changed);
    return changed;
  });
  if (updated) return updated;
  const latest = await findRequest(ctx.db, row.id);
  if (!latest) throw notFound(ADMIN_NOT_FOUND);
  if (latest.status !== 'approved') throw conflict(SHIPPING_NEEDS_APPROVAL);
  throw conflict(SHIPPING_LOCKED);
}
