import { createHmac, randomBytes } from 'node:crypto';

/** A new endpoint secret: 32 random bytes, base64, with the Standard Webhooks prefix. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** A new event id (the webhook-id header): unique per event, the same on every attempt. */
export function newEventId(): string {
  return `msg_${randomBytes(16).toString('hex')}`;
}

/** The webhook-signature header: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the secret's bytes. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The three Standard Webhooks headers for one attempt. */
export function webhookHeaders(secret: string, id: string, body: string, now: Date = new Date()): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, id, timestamp, body),
  };
}
