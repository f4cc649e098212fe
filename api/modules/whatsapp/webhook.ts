import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '#api/context.ts';
import { optOutPhone } from '#api/modules/users/service.ts';
import { AppError, notFound } from '#api/lib/errors.ts';
import { isStopReply, VERIFY_TOKEN_INVALID, WEBHOOK_SIGNATURE_INVALID, WHATSAPP_OFF } from './rules.ts';
import { recordDeliveryStatus, type DeliveryStatus } from './service.ts';

/**
 * The Cloud API's webhook: Meta's subscription check (GET) and its notifications (POST), signed
 * with `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body under the app secret>`.
 */

/** Whether `header` is the signature of exactly these bytes; compared in constant time. */
export function validSignature(appSecret: string, rawBody: Uint8Array | string, header: string | null): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '');
  if (!match) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(match[1]!, 'hex'));
}

function channelOf(ctx: AppContext) {
  if (!ctx.settings.whatsapp) throw notFound(WHATSAPP_OFF);
  return ctx.settings.whatsapp;
}

/** GET: the challenge back, only for a subscription with our verify token. */
export function answerChallenge(ctx: AppContext, query: { 'hub.mode'?: string; 'hub.verify_token'?: string; 'hub.challenge'?: string }): string {
  const channel = channelOf(ctx);
  const token = Buffer.from(query['hub.verify_token'] ?? '');
  const ours = Buffer.from(channel.verifyToken);
  const same = token.length === ours.length && timingSafeEqual(token, ours);
  if (query['hub.mode'] !== 'subscribe' || !same || !query['hub.challenge']) throw new AppError(403, VERIFY_TOKEN_INVALID);
  return query['hub.challenge'];
}

interface Notification {
  entry?: { changes?: { field?: string; value?: ChangeValue }[] }[];
}
interface ChangeValue {
  statuses?: { id?: unknown; status?: unknown; errors?: { code?: unknown; title?: unknown; message?: unknown }[] }[];
  messages?: { from?: unknown; type?: unknown; text?: { body?: unknown }; button?: { text?: unknown } }[];
}

const DELIVERY: readonly string[] = ['sent', 'delivered', 'read', 'failed'];

export interface WebhookOutcome {
  statuses: number;
  optedOut: number;
}

/**
 * POST: checks the signature over the raw bytes (401 otherwise), then records each delivery status
 * and opts out each sender who replied STOP. Anything else in the notification is ignored.
 */
export async function receiveNotification(ctx: AppContext, rawBody: Uint8Array, signature: string | null): Promise<WebhookOutcome> {
  const channel = channelOf(ctx);
  if (!validSignature(channel.appSecret, rawBody, signature)) throw new AppError(401, WEBHOOK_SIGNATURE_INVALID);
  let notification: Notification;
  try {
    notification = JSON.parse(new TextDecoder().decode(rawBody)) as Notification;
  } catch {
    throw new AppError(400, 'The notification is not JSON.');
  }
  const outcome: WebhookOutcome = { statuses: 0, optedOut: 0 };
  const changes = Array.isArray(notification?.entry) ? notification.entry.flatMap((e) => (Array.isArray(e?.changes) ? e.changes : [])) : [];
  for (const change of changes) {
    const value = change?.value;
    for (const status of Array.isArray(value?.statuses) ? value.statuses : []) {
      if (typeof status?.id !== 'string' || typeof status.status !== 'string' || !DELIVERY.includes(status.status)) continue;
      const first = Array.isArray(status.errors) ? status.errors[0] : undefined;
      const error = first ? [first.code !== undefined ? `(#${String(first.code)})` : '', String(first.title ?? first.message ?? '')].join(' ').trim() : null;
      if (await recordDeliveryStatus(ctx.db, status.id, status.status as DeliveryStatus, error)) outcome.statuses++;
    }
    for (const message of Array.isArray(value?.messages) ? value.messages : []) {
      const text = message?.type === 'text' ? message.text?.body : message?.type === 'button' ? message.button?.text : undefined;
      if (typeof text !== 'string' || !isStopReply(text) || typeof message.from !== 'string' || !/^\d{8,15}$/.test(message.from)) continue;
      const optedOut = await optOutPhone(ctx.db, `+${message.from}`);
      if (optedOut > 0) ctx.log.info('whatsapp opt-out by STOP reply', { users: optedOut });
      outcome.optedOut += optedOut;
    }
  }
  return outcome;
}
