import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { Db } from '#api/db/connect.ts';
import { badRequest, notFound } from '#api/lib/errors.ts';
import { isUuid } from '#api/lib/request-meta.ts';
import { destinationProblem } from './destination.ts';
import type { CreatedWebhookEndpoint, NewWebhookEndpointBody, WebhookDeliveryDetail, WebhookEndpoint } from './model.ts';
import { deliveryOr404, endpointOr404, parseDeliveryId, toWebhookEndpoint } from './queries.ts';
import { DELIVERY_NOT_FOUND, ENDPOINT_NOT_FOUND, INVALID_EVENTS, RETRY_WINDOW_HOURS, parseEvents, type WebhookEventType } from './rules.ts';
import { newEventId, newWebhookSecret } from './signature.ts';

/**
 * Webhook endpoints and the outbox of deliveries: the only writer of webhook_endpoints and
 * webhook_deliveries (the delivery worker in delivery.ts records attempts and outcomes).
 */

/** Adds an endpoint; the answer carries its secret, which is never shown again. */
export async function createEndpoint(ctx: AppContext, input: NewWebhookEndpointBody | { url: string; events: readonly string[] }): Promise<CreatedWebhookEndpoint> {
  const url = input.url.trim();
  const events = parseEvents(input.events);
  if (!events) throw badRequest(INVALID_EVENTS);
  const problem = await destinationProblem(url, ctx.settings.webhookAllowPrivate);
  if (problem) throw badRequest(problem);
  const secret = newWebhookSecret();
  const row = await ctx.db.insertInto('webhook_endpoints').values({ url, events, secret }).returningAll().executeTakeFirstOrThrow();
  return { ...toWebhookEndpoint(row), secret };
}

export async function removeEndpoint(db: Db, id: string | undefined): Promise<void> {
  const removed = id && isUuid(id) ? await db.deleteFrom('webhook_endpoints').where('id', '=', id).returning('id').executeTakeFirst() : undefined;
  if (!removed) throw notFound(ENDPOINT_NOT_FOUND);
}

/** Turns an endpoint off, or on again (its failure count starts over and what waited is sent). */
export async function setEndpointEnabled(db: Db, id: string | undefined, enabled: boolean): Promise<WebhookEndpoint> {
  const endpoint = await endpointOr404(db, id);
  await db
    .updateTable('webhook_endpoints')
    .set(enabled ? { enabled: true, disabled_reason: null, consecutive_failures: 0, updated_at: sql`now()` } : { enabled: false, disabled_reason: 'Turned off by an admin.', updated_at: sql`now()` })
    .where('id', '=', endpoint.id)
    .execute();
  return endpointOr404(db, endpoint.id);
}

/**
 * Puts an event in the outbox for every enabled endpoint that subscribed to it. Call it with the
 * transaction that makes the change: a change that rolls back sends nothing, one that commits is
 * never lost. `data` is built only when someone listens.
 */
export async function emitWebhookEvent(trx: Db, type: WebhookEventType, data: () => Promise<unknown>): Promise<void> {
  const endpoints = await trx
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('enabled', '=', true)
    .where(sql<boolean>`${type} = any(events)`)
    .execute();
  if (endpoints.length === 0) return;
  const id = newEventId();
  const body = JSON.stringify({ id, type, createdAt: new Date().toISOString(), data: await data() });
  await trx
    .insertInto('webhook_deliveries')
    .values(endpoints.map((e) => ({ endpoint_id: e.id, event_id: id, event_type: type, body, next_attempt_at: sql<Date>`now()` })))
    .execute();
}

/**
 * Queues a delivery to be sent again now (same webhook-id and body, so receivers can dedupe), with
 * a fresh 24-hour retry window, whatever its state: an attempt already under way is not stopped.
 */
export async function redeliver(db: Db, id: string | number | undefined): Promise<WebhookDeliveryDetail> {
  const deliveryId = parseDeliveryId(id);
  const queued =
    deliveryId === undefined
      ? undefined
      : await db
          .updateTable('webhook_deliveries')
          .set({ status: 'pending', next_attempt_at: sql`now()`, retry_until: sql`now() + make_interval(hours => ${RETRY_WINDOW_HOURS})` })
          .where('id', '=', deliveryId)
          .returning('id')
          .executeTakeFirst();
  if (!queued) throw notFound(DELIVERY_NOT_FOUND);
  return deliveryOr404(db, queued.id);
}
