import type { Db } from '#api/db/connect.ts';
import { isUuid } from '#api/lib/request-meta.ts';
import { notFound } from '#api/lib/errors.ts';
import type { DeliveriesQuery, WebhookDelivery, WebhookDeliveryDetail, WebhookEndpoint } from './model.ts';
import { DELIVERY_NOT_FOUND, ENDPOINT_NOT_FOUND } from './rules.ts';

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

type EndpointRow = { id: string; url: string; events: string[]; enabled: boolean; disabled_reason: string | null; consecutive_failures: number; created_at: Date };

export function toWebhookEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    consecutiveFailures: row.consecutive_failures,
    createdAt: iso(row.created_at)!,
  };
}

const endpointColumns = ['id', 'url', 'events', 'enabled', 'disabled_reason', 'consecutive_failures', 'created_at'] as const;

export async function listEndpoints(db: Db): Promise<WebhookEndpoint[]> {
  const rows = await db.selectFrom('webhook_endpoints').select(endpointColumns).orderBy('created_at').orderBy('id').execute();
  return rows.map(toWebhookEndpoint);
}

export async function endpointOr404(db: Db, id: string | undefined): Promise<WebhookEndpoint> {
  const row = id && isUuid(id) ? await db.selectFrom('webhook_endpoints').select(endpointColumns).where('id', '=', id).executeTakeFirst() : undefined;
  if (!row) throw notFound(ENDPOINT_NOT_FOUND);
  return toWebhookEndpoint(row);
}

const deliveries = (db: Db) =>
  db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select([
      'd.id',
      'd.endpoint_id',
      'e.url',
      'd.event_id',
      'd.event_type',
      'd.status',
      'd.attempts',
      'd.last_status_code',
      'd.last_error',
      'd.next_attempt_at',
      'd.delivered_at',
      'd.created_at',
    ]);

type DeliveryRow = Awaited<ReturnType<ReturnType<typeof deliveries>['executeTakeFirstOrThrow']>>;

function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: Number(row.id),
    endpointId: row.endpoint_id,
    url: row.url,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    nextAttemptAt: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    deliveredAt: iso(row.delivered_at),
    createdAt: iso(row.created_at)!,
  };
}

/** Newest first; by endpoint, and only those that gave up with `failed`. */
export async function listDeliveries(db: Db, filter: DeliveriesQuery = {}): Promise<WebhookDelivery[]> {
  let query = deliveries(db).orderBy('d.id', 'desc').limit(filter.limit ?? 100);
  if (filter.endpoint) query = query.where('d.endpoint_id', '=', filter.endpoint);
  if (filter.failed) query = query.where('d.status', '=', 'failed');
  return (await query.execute()).map(toDelivery);
}

export const parseDeliveryId = (id: string | number | undefined) => {
  const text = String(id ?? '');
  return /^\d{1,15}$/.test(text) ? Number(text) : undefined;
};

export async function deliveryOr404(db: Db, id: string | number | undefined): Promise<WebhookDeliveryDetail> {
  const deliveryId = parseDeliveryId(id);
  const row = deliveryId === undefined ? undefined : await deliveries(db).select('d.body').where('d.id', '=', deliveryId).executeTakeFirst();
  if (!row) throw notFound(DELIVERY_NOT_FOUND);
  const attempts = await db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', row.id).orderBy('id').execute();
  return {
    ...toDelivery(row),
    body: row.body,
    attemptLog: attempts.map((a) => ({
      id: Number(a.id),
      statusCode: a.status_code,
      durationMs: a.duration_ms,
      error: a.error,
      responseExcerpt: a.response_excerpt,
      createdAt: iso(a.created_at)!,
    })),
  };
}
