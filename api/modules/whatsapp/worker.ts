import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { Db } from '#api/db/connect.ts';
import type { WhatsAppSettings } from '#api/settings.ts';
import { jsonRows } from '#api/db/json-rows.ts';
import { exponentialSeconds, withJitter } from '#api/jobs/backoff.ts';
import { drainInBatches, type BatchReport } from '#api/jobs/drain.ts';
import { claimDue, leased, type Outbox } from '#api/jobs/queue.ts';
import { OPTED_OUT_ERROR } from './rules.ts';

/**
 * Sends the WhatsApp outbox through the Cloud API: `POST {WHATSAPP_API_URL}/{phone number id}/messages`
 * with the template, its language and its body parameters. Claimed and leased through the job queue
 * (api/jobs/queue.ts), so two workers never send one message; each attempt and its outcome is a row
 * of whatsapp_attempts. 5xx, 429, 401 (the token), a timeout or a lost connection: tried again with
 * backoff; any other 4xx is Meta refusing this message (a bad number, an unknown template): given up at once.
 */

export const WHATSAPP_QUEUE: Outbox<'whatsapp_outbox'> = {
  kind: 'whatsapp',
  table: 'whatsapp_outbox',
  // a message's attempts (whatsapp_attempts) go with it when it is pruned (on delete cascade)
  columns: { status: 'status', attempts: 'attempts', dueAt: 'next_attempt_at', error: 'last_error', sentAt: 'sent_at' },
  claimable: ['pending'],
  leasedStatus: 'pending',
  doneStatus: 'sent',
};

const MAX_ATTEMPTS = 8;
/** Longer than the longest request (WHATSAPP_TIMEOUT_MS is at most 30 s), so a lease never ends mid-send. */
const LEASE_SECONDS = 90;

/** Seconds before the next try after `attempts` failed ones: 30 s × 2^attempts, at most an hour, ±10 %. */
export function whatsappBackoffSeconds(attempts: number, random?: number): number {
  return withJitter(exponentialSeconds(attempts, 30, 3600), 0.1, random);
}

interface Outcome {
  ok: boolean;
  /** false: Meta refused this message for good */
  retry: boolean;
  statusCode: number | null;
  error: string | null;
  messageId: string | null;
  durationMs: number;
}

type Claimed = Awaited<ReturnType<typeof claimDue<'whatsapp_outbox'>>>[number];

/** The Graph API's `{ error: { message, code } }`, as one line. */
function graphError(status: number, body: unknown): string {
  const error = (body as { error?: { message?: unknown; code?: unknown } } | null)?.error;
  const detail = error && typeof error.message === 'string' ? `: ${error.code !== undefined ? `(#${String(error.code)}) ` : ''}${error.message}` : '';
  return `HTTP ${status}${detail}`;
}

export function messageBody(message: { to_phone: string; template_name: string; language: string; params: unknown }) {
  const params = jsonRows<string>(message.params as string[] | string);
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: message.to_phone.replace(/^\+/, ''),
    type: 'template',
    template: {
      name: message.template_name,
      language: { code: message.language },
      components: params.length > 0 ? [{ type: 'body', parameters: params.map((text) => ({ type: 'text', text })) }] : [],
    },
  };
}

async function send(channel: WhatsAppSettings, message: Claimed): Promise<Outcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(`${channel.apiUrl}/${channel.phoneNumberId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${channel.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(messageBody(message)),
      redirect: 'manual',
      signal: AbortSignal.timeout(channel.timeoutMs),
    });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {}
    if (response.ok) {
      const id = (body as { messages?: { id?: unknown }[] } | null)?.messages?.[0]?.id;
      if (typeof id === 'string' && id) return { ok: true, retry: false, statusCode: response.status, error: null, messageId: id, durationMs: elapsed() };
      return { ok: false, retry: true, statusCode: response.status, error: `HTTP ${response.status} without a message id`, messageId: null, durationMs: elapsed() };
    }
    // 401: the token expired or was revoked, which the operator fixes; the messages wait for it instead of dying
    const retry = response.status >= 500 || response.status === 429 || response.status === 408 || response.status === 401;
    return { ok: false, retry, statusCode: response.status, error: graphError(response.status, body).slice(0, 1000), messageId: null, durationMs: elapsed() };
  } catch (error) {
    const name = (error as Error)?.name;
    const message = name === 'TimeoutError' || name === 'AbortError' ? `No answer within ${channel.timeoutMs / 1000} s` : error instanceof Error ? error.message : String(error);
    return { ok: false, retry: true, statusCode: null, error: message.slice(0, 1000), messageId: null, durationMs: elapsed() };
  }
}

/** Whether the customer is still opted in at the number the message was queued for. */
async function stillOptedIn(db: Db, message: Claimed): Promise<boolean> {
  const user = await db.selectFrom('users').select('id').where('id', '=', message.user_id).where('whatsapp_opt_in', '=', true).where('phone', '=', message.to_phone).executeTakeFirst();
  return user !== undefined;
}

/** Writes the outcome while the lease is ours, with its attempt row; false when another worker owns it now. */
async function record(db: Db, message: Claimed, outcome: Outcome): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const base = leased(trx, WHATSAPP_QUEUE, Number(message.id), message.attempts);
    const giveUp = !outcome.ok && (!outcome.retry || message.attempts >= MAX_ATTEMPTS);
    const updated = await (outcome.ok
      ? base.set({ status: 'sent', sent_at: sql`now()`, wa_message_id: outcome.messageId, delivery_status: 'sent', last_error: null, next_attempt_at: null })
      : base.set({
          status: giveUp ? 'failed' : 'pending',
          last_error: outcome.error,
          next_attempt_at: giveUp ? null : new Date(Date.now() + whatsappBackoffSeconds(message.attempts) * 1000),
        })
    )
      .returning('id')
      .executeTakeFirst();
    if (!updated) return false;
    await trx
      .insertInto('whatsapp_attempts')
      .values({ message_id: Number(message.id), status_code: outcome.statusCode, error: outcome.error, duration_ms: outcome.durationMs })
      .execute();
    return true;
  });
}

/** Sends one claimed batch of due messages (or just `onlyId`) and records each outcome. */
export async function sendDueWhatsApp(ctx: AppContext, options: { limit?: number; onlyId?: number } = {}): Promise<BatchReport> {
  const report: BatchReport = { claimed: 0, succeeded: 0, failed: 0 };
  const channel = ctx.settings.whatsapp;
  if (!channel) return report;
  const batch = await claimDue(ctx.db, WHATSAPP_QUEUE, { limit: options.limit ?? 20, onlyId: options.onlyId, leaseSeconds: LEASE_SECONDS });
  // one after the other: a customer's messages reach them in the order they were queued
  for (const message of batch) {
    report.claimed++;
    const outcome: Outcome = (await stillOptedIn(ctx.db, message))
      ? await send(channel, message)
      : { ok: false, retry: false, statusCode: null, error: OPTED_OUT_ERROR, messageId: null, durationMs: 0 };
    await record(ctx.db, message, outcome);
    if (outcome.ok) report.succeeded++;
    else {
      report.failed++;
      ctx.log.warn('whatsapp message not sent', { id: Number(message.id), template: message.template, attempt: message.attempts, error: outcome.error, retry: outcome.retry });
    }
  }
  return report;
}

/** The background job: sends everything due, batch by batch. */
export function sendAllDueWhatsApp(ctx: AppContext, signal?: AbortSignal): Promise<BatchReport> {
  return drainInBatches((limit) => sendDueWhatsApp(ctx, { limit }), undefined, signal);
}
