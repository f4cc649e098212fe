import type { Db } from '#api/db/connect.ts';
import type { ExchangeRequestRow } from '#api/db/types.ts';
import { creditRecordQuery, toCreditRecord } from '#api/modules/credit/record.ts';
import type { ImageRef } from '#api/modules/requests/model.ts';
import { withImages } from '#api/modules/requests/queries.ts';
import { toExchangeRequest } from '#api/modules/requests/serialize.ts';
import { emitWebhookEvent } from './service.ts';
import type { WebhookEventType } from './rules.ts';

/**
 * The one call each state change makes inside its transaction: the event's data is the request
 * or the ledger record as the admin API shows it.
 */

type RequestEventType = Extract<WebhookEventType, `request.${string}`>;

/** `images` for a request that is gone (cancelled, deleted): its rows left with it, so the caller read them first. */
export function emitRequestEvent(trx: Db, type: RequestEventType, row: ExchangeRequestRow, images?: ImageRef[]): Promise<void> {
  return emitWebhookEvent(trx, type, async () => {
    const request = images ? toExchangeRequest(row, images) : (await withImages(trx, [row]))[0]!;
    return { ...request, userEmail: row.customer_email };
  });
}

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

export function emitCreditEvent(trx: Db, type: 'credit.pushed' | 'credit.failed', ledgerId: number): Promise<void> {
  return emitWebhookEvent(trx, type, async () => {
    const row = await creditRecordQuery(trx).select(['l.created_at', 'l.pushed_at']).where('l.id', '=', ledgerId).executeTakeFirstOrThrow();
    return toCreditRecord(row, { createdAt: iso(row.created_at)!, pushedAt: iso(row.pushed_at) });
  });
}
