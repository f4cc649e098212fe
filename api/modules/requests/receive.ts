import { sql, type RawBuilder } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { ExchangeRequestRow } from '#api/db/types.ts';
import { AppError, badRequest, conflict, notFound } from '#api/lib/errors.ts';
import { dateTimeFormat } from '#api/lib/intl.ts';
import { isUuid } from '#api/lib/request-meta.ts';
import { cleanText } from '#api/lib/text.ts';
import type { Actor } from './events.ts';
import type { ReceiveBody, ReceivedRequest } from './model.ts';
import { imagesOf } from '#api/modules/images/service.ts';
import { findRequest } from './queries.ts';
import { referenceIdPrefix, requestReference } from './reference.ts';
import { SCAN_A_CODE } from './rules.ts';
import { toExchangeRequest } from './serialize.ts';
import { markReceived } from './service.ts';

/**
 * Admin → Receive (issue 27): a scanned or typed code names one request, which is then marked
 * received by the same `markReceived` as the admin's button, so every rule of receiving holds.
 */

/** The expression of `exchange_requests_tracking_code_idx` (migration 018), written the same so the index serves it. */
const TRACKING_KEY: RawBuilder<string> = sql`upper(regexp_replace(shipping_tracking_number, '\\s', '', 'g'))`;

/** A tracking number as the index keeps it: no white space, upper case. */
export const trackingKey = (code: string) => code.replace(/\s+/g, '').toUpperCase();

/** The uuid range whose ids start with a reference's ten hex digits: a range on the primary key, so the lookup is indexed. */
function idRange(prefix: string): [string, string] {
  const asUuid = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return [asUuid(prefix.padEnd(32, '0')), asUuid(prefix.padEnd(32, 'f'))];
}

/** When a request was received, as the shop's pages show a time: '25 Nov 2026, 3:04 pm IST'. */
export function receivedWhen(at: Date, timeZone: string): string {
  const zone = dateTimeFormat('en-IN', { timeZoneName: 'short', timeZone }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? '';
  return `${dateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(at)} ${zone}`.trim();
}

function alreadyReceived(ctx: AppContext, row: ExchangeRequestRow): AppError {
  const reference = requestReference(row.id);
  if (!row.received_at) return conflict(`${reference} (${row.product_name}) has already been received.`);
  const at = new Date(row.received_at);
  return conflict(`${reference} (${row.product_name}) was already received on ${receivedWhen(at, ctx.settings.shopTimeZone)}.`, { receivedAt: at.toISOString() });
}

/** The requests a code names: by tracking number, by slip reference, or by the full id; two at most, to tell an ambiguous code. */
export async function requestsForCode(ctx: AppContext, code: string): Promise<ExchangeRequestRow[]> {
  const key = trackingKey(code);
  const prefix = referenceIdPrefix(code);
  return ctx.db
    .selectFrom('exchange_requests')
    .selectAll()
    .where((eb) => {
      const matches = [eb.and([eb('shipping_tracking_number', 'is not', null), eb(TRACKING_KEY, '=', key)])];
      if (prefix) {
        const [low, high] = idRange(prefix);
        matches.push(eb.and([eb('id', '>=', low), eb('id', '<=', high)]));
      }
      if (isUuid(code.trim())) matches.push(eb('id', '=', code.trim().toLowerCase()));
      return eb.or(matches);
    })
    .limit(2)
    .execute();
}

/** POST /api/admin/receive: the request the code names, marked received; a second scan of it is a 409 saying when. */
export async function receiveByCode(ctx: AppContext, actor: Actor, input: ReceiveBody): Promise<ReceivedRequest> {
  const code = cleanText(input.code);
  if (!code) throw badRequest(SCAN_A_CODE);
  const found = await requestsForCode(ctx, code);
  if (found.length === 0) throw notFound(`No request found for ${code}`);
  if (found.length > 1) {
    throw conflict(`${code} matches more than one request. Open the request from the queue and mark it received there.`);
  }
  const row = found[0]!;
  if (row.transit_status === 'received') throw alreadyReceived(ctx, row);
  // the photos are read first: receiving does not change them, and the answer then need not wait
  // for the mail worker that markReceived wakes (on the embedded database it shares one connection)
  const images = (await imagesOf(ctx.db, [row.id])).get(row.id) ?? [];
  let received: ExchangeRequestRow;
  try {
    received = await markReceived(ctx, actor, row.id, { transitStatus: 'received', adminNote: input.adminNote ?? null });
  } catch (error) {
    // a scan racing another: the loser answers as a repeated scan does
    if (error instanceof AppError && error.status === 409) {
      const latest = await findRequest(ctx.db, row.id);
      if (latest?.transit_status === 'received') throw alreadyReceived(ctx, latest);
    }
    throw error;
  }
  return { ...toExchangeRequest(received, images), userEmail: received.customer_email, reference: requestReference(received.id) };
}
