import type { Db } from '#api/db/connect.ts';
import type { ExchangeRequestRow } from '#api/db/types.ts';
import { emitWebhookEvent } from '#api/modules/webhooks/service.ts';
import type { WebhookEventType } from '#api/modules/webhooks/rules.ts';
import type { ImageRef } from './model.ts';
import { withImages } from './queries.ts';
import { toExchangeRequest } from './serialize.ts';

type RequestEventType = Extract<WebhookEventType, `request.${string}`>;

/**
 * The one call each change of a request makes inside its transaction: the event's data is the
 * request as the admin API shows it. `images` for a request that is gone (cancelled, deleted): its
 * rows left with it, so the caller read them first.
 */
export function emitRequestEvent(trx: Db, type: RequestEventType, row: ExchangeRequestRow, images?: ImageRef[]): Promise<void> {
  return emitWebhookEvent(trx, type, async () => {
    const request = images ? toExchangeRequest(row, images) : (await withImages(trx, [row]))[0]!;
    return { ...request, userEmail: row.customer_email };
  });
}
