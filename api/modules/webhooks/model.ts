import { t, type UnwrapSchema } from 'elysia';
import { INVALID_EVENTS, MAX_URL_LENGTH, WEBHOOK_EVENT_TYPES } from './rules.ts';

const EventType = t.Union(WEBHOOK_EVENT_TYPES.map((e) => t.Literal(e)));

export const WebhookEndpoint = t.Object({
  id: t.String(),
  url: t.String(),
  events: t.Array(t.String()),
  enabled: t.Boolean(),
  disabledReason: t.Union([t.String(), t.Null()]),
  consecutiveFailures: t.Number(),
  createdAt: t.String(),
});
export type WebhookEndpoint = UnwrapSchema<typeof WebhookEndpoint>;

/** The answer to creating an endpoint: the only time its secret is shown. */
export const CreatedWebhookEndpoint = t.Object({ ...WebhookEndpoint.properties, secret: t.String() });
export type CreatedWebhookEndpoint = UnwrapSchema<typeof CreatedWebhookEndpoint>;

export const NewWebhookEndpointBody = t.Object(
  {
    url: t.String({ minLength: 1, maxLength: MAX_URL_LENGTH, error: 'Enter a full URL, like https://example.com/webhooks.' }),
    events: t.Array(EventType, { minItems: 1, maxItems: WEBHOOK_EVENT_TYPES.length * 2, error: INVALID_EVENTS }),
  },
  { error: 'Send { url, events }.' },
);
export type NewWebhookEndpointBody = UnwrapSchema<typeof NewWebhookEndpointBody>;

export const EndpointStateBody = t.Object({ enabled: t.Boolean({ error: 'enabled must be true or false' }) }, { error: 'Send { enabled }.' });

export const WebhookAttempt = t.Object({
  id: t.Number(),
  statusCode: t.Union([t.Number(), t.Null()]),
  durationMs: t.Number(),
  error: t.Union([t.String(), t.Null()]),
  responseExcerpt: t.Union([t.String(), t.Null()]),
  createdAt: t.String(),
});

export const WebhookDelivery = t.Object({
  id: t.Number(),
  endpointId: t.String(),
  url: t.String(),
  eventId: t.String(),
  eventType: t.String(),
  status: t.Union([t.Literal('pending'), t.Literal('succeeded'), t.Literal('failed')]),
  attempts: t.Number(),
  lastStatusCode: t.Union([t.Number(), t.Null()]),
  lastError: t.Union([t.String(), t.Null()]),
  nextAttemptAt: t.Union([t.String(), t.Null()]),
  deliveredAt: t.Union([t.String(), t.Null()]),
  createdAt: t.String(),
});
export type WebhookDelivery = UnwrapSchema<typeof WebhookDelivery>;

export const WebhookDeliveryDetail = t.Object({ ...WebhookDelivery.properties, body: t.String(), attemptLog: t.Array(WebhookAttempt) });
export type WebhookDeliveryDetail = UnwrapSchema<typeof WebhookDeliveryDetail>;

export const DeliveriesQuery = t.Object({
  endpoint: t.Optional(t.String({ format: 'uuid', error: 'endpoint must be an endpoint id' })),
  failed: t.Optional(t.Boolean({ error: 'failed must be true or false' })),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 500, error: 'limit must be a whole number from 1 to 500' })),
});
export type DeliveriesQuery = UnwrapSchema<typeof DeliveriesQuery>;
