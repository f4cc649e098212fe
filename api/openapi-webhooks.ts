import { t, type TSchema } from 'elysia';
import { dateTime } from '#api/lib/schema.ts';
import { CreditRecord } from '#api/modules/credit/model.ts';
import { AdminExchangeRequest } from '#api/modules/requests/model.ts';
import { RETRY_WINDOW_HOURS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '#api/modules/webhooks/rules.ts';

/**
 * The webhook deliveries as OpenAPI 3.1 `webhooks`: one entry per event type, each a POST of
 * `{ id, type, createdAt, data }` signed with the Standard Webhooks headers (see webhooks/signature.ts and
 * the emitters in requests/webhook.ts and credit/webhook.ts, which build `data` from the same shapes the admin API answers with).
 */

const dataOf = (type: WebhookEventType): TSchema => (type.startsWith('credit.') ? CreditRecord : AdminExchangeRequest);

const DESCRIPTIONS: Record<WebhookEventType, string> = {
  'request.created': 'A customer submitted a trade-in request.',
  'request.approved': 'An admin approved a request (it now names the warehouse to ship to).',
  'request.declined': 'An admin declined a request, or it passed its shipping deadline.',
  'request.shipped': 'The customer gave the shipping details.',
  'request.received': 'The parcel arrived at the warehouse.',
  'request.credited': 'An admin assigned the store credit.',
  'request.completed': 'The request is complete.',
  'request.cancelled': 'The customer withdrew the request.',
  'request.deleted': 'An admin deleted the request.',
  'credit.pushed': 'The credit reached the shop.',
  'credit.failed': 'Pushing the credit to the shop failed (it is retried).',
};

const header = (description: string, example: string) => ({ required: true, description, schema: { type: 'string' }, example });

const SIGNATURE_HEADERS = [
  { name: 'webhook-id', in: 'header', ...header('The event id: the same on every attempt, so a receiver can drop repeats.', 'msg_5f2b9c1e0a7d4e3f8b6a1c2d3e4f5a6b') },
  { name: 'webhook-timestamp', in: 'header', ...header('Seconds since 1970 when this attempt was signed: refuse old ones.', '1764072000') },
  {
    name: 'webhook-signature',
    in: 'header',
    ...header('`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint secret (the bytes after `whsec_`, base64-decoded).', 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4='),
  },
];

function eventOperation(type: WebhookEventType) {
  const payload = t.Object({ id: t.String({ description: 'the event id (also webhook-id)' }), type: t.Literal(type), createdAt: dateTime, data: dataOf(type) });
  return {
    post: {
      operationId: `webhook${type.replace(/(^|\.)(\w)/g, (_, _dot: string, c: string) => c.toUpperCase())}`,
      summary: type,
      description: `${DESCRIPTIONS[type]} Delivered to every enabled endpoint subscribed to \`${type}\`; any 2xx answer is success, anything else is retried with backoff for ${RETRY_WINDOW_HOURS} hours.`,
      tags: ['Webhooks'],
      security: [],
      parameters: SIGNATURE_HEADERS,
      requestBody: { required: true, content: { 'application/json': { schema: JSON.parse(JSON.stringify(payload)) } } },
      responses: { '2XX': { description: 'Received: the delivery is done.' }, default: { description: 'Not received: the delivery is tried again later.' } },
    },
  };
}

export const webhookDocumentation = () => Object.fromEntries(WEBHOOK_EVENT_TYPES.map((type) => [type, eventOperation(type)]));
