import { isIP } from 'node:net';
import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { Db } from '#api/db/connect.ts';
import { enqueueMail } from '#api/modules/mail/service.ts';
import { allAdminEmails } from '#api/modules/users/queries.ts';
import { resolveDestination, systemResolve, type Resolve } from './destination.ts';
import { RESPONSE_EXCERPT_CHARS, WEBHOOK_TIMEOUT_MS, retryDelaySeconds } from './rules.ts';
import { webhookHeaders } from './signature.ts';
import { drainInBatches, type BatchReport } from '#api/jobs/drain.ts';
import { claimDue, leased, type Queue } from '#api/jobs/queue.ts';

/**
 * The delivery worker. Due deliveries are claimed with FOR UPDATE SKIP LOCKED and leased (their
 * next attempt moved past the request timeout) in a short transaction; each is signed and POSTed
 * outside it; the attempt and its outcome are recorded only if the lease is still ours. Any
 * number of instances can run it at once without sending an attempt twice.
 */

const LEASE_SECONDS = 60;

export type DeliveryReport = BatchReport;

interface Claimed {
  id: number;
  endpoint_id: string;
  event_id: string;
  body: string;
  attempts: number;
  retry_until: Date;
  url: string;
  secret: string;
}

interface Outcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  excerpt: string | null;
  durationMs: number;
}

/** The deliveries as a job queue (api/jobs/queue.ts): a delivery is a job, due at next_attempt_at, while its endpoint is on. */
export const WEBHOOK_QUEUE: Queue<'webhook_deliveries'> = {
  kind: 'webhook',
  table: 'webhook_deliveries',
  columns: { status: 'status', attempts: 'attempts', dueAt: 'next_attempt_at', error: 'last_error' },
  claimable: ['pending'],
  leasedStatus: 'pending',
  doneStatus: 'succeeded',
  alsoWhere: sql<boolean>`endpoint_id in (select e.id from webhook_endpoints e where e.enabled)`,
  metricsKind: 'webhooks',
};

async function claim(db: Db, limit: number, onlyId?: number): Promise<Claimed[]> {
  const rows = await claimDue(db, WEBHOOK_QUEUE, { limit, onlyId, leaseSeconds: LEASE_SECONDS });
  if (rows.length === 0) return [];
  const endpoints = await db
    .selectFrom('webhook_endpoints')
    .select(['id', 'url', 'secret'])
    .where('id', 'in', [...new Set(rows.map((r) => r.endpoint_id))])
    .execute();
  const byId = new Map(endpoints.map((e) => [e.id, e]));
  // an endpoint deleted since the claim took its deliveries with it
  return rows.flatMap((r) => {
    const endpoint = byId.get(r.endpoint_id);
    return endpoint ? [{ ...r, id: Number(r.id), url: endpoint.url, secret: endpoint.secret }] : [];
  });
}

async function readExcerpt(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < RESPONSE_EXCERPT_CHARS) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return text.slice(0, RESPONSE_EXCERPT_CHARS);
}

/** Connecting to this address failed before anything was sent: the next address of the name may be tried. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ConnectionRefused', 'FailedToOpenSocket']);

/**
 * The URL with its host replaced by a checked address. The name stays in the Host header and, for
 * https, in the TLS server name: the certificate is verified against the name, as without pinning.
 */
function pinnedRequest(raw: string, address: string): { target: string; host: string; tls?: { serverName: string } } {
  const url = new URL(raw);
  const name = url.hostname.replace(/^\[|\]$/g, '');
  const target = new URL(raw);
  target.hostname = isIP(address) === 6 ? `[${address}]` : address;
  const tls = url.protocol === 'https:' && !isIP(name) ? { serverName: name } : undefined;
  return { target: target.href, host: url.host, tls };
}

/** One signed POST: to an address checked just before (never a second lookup), no redirects followed, a 10-second limit. */
async function send(ctx: AppContext, delivery: Claimed, resolve: Resolve): Promise<Outcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const destination = await resolveDestination(delivery.url, ctx.settings.webhookAllowPrivate, resolve);
  if (destination.problem !== null) return { ok: false, statusCode: null, error: `Not sent: ${destination.problem}`, excerpt: null, durationMs: elapsed() };
  const signal = AbortSignal.timeout(WEBHOOK_TIMEOUT_MS);
  for (const [index, address] of destination.addresses.entries()) {
    const { target, host, tls } = pinnedRequest(delivery.url, address);
    try {
      const response = await fetch(target, {
        method: 'POST',
        headers: {
          host,
          'content-type': 'application/json',
          'user-agent': 'SwapPoints-Webhooks/1.0',
          ...webhookHeaders(delivery.secret, delivery.event_id, delivery.body),
        },
        body: delivery.body,
        redirect: 'manual',
        signal,
        tls,
      });
      const excerpt = await readExcerpt(response).catch(() => '');
      const ok = response.status >= 200 && response.status < 300;
      const error = ok ? null : response.status >= 300 && response.status < 400 ? `Redirect to ${response.headers.get('location') ?? '?'} not followed` : `HTTP ${response.status}`;
      return { ok, statusCode: response.status, error, excerpt, durationMs: elapsed() };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException)?.code;
      if (code && NOT_CONNECTED.has(code) && index < destination.addresses.length - 1) continue;
      const name = (error as Error)?.name;
      const message = name === 'TimeoutError' || name === 'AbortError' ? `No answer within ${WEBHOOK_TIMEOUT_MS / 1000} s` : error instanceof Error ? error.message : String(error);
      // the runtime's message names the address it connected to; record it with the endpoint's URL as before
      return { ok: false, statusCode: null, error: message.replaceAll(target, new URL(delivery.url).href).slice(0, 1000), excerpt: null, durationMs: elapsed() };
    }
  }
  throw new Error('unreachable: a destination has at least one address');
}

async function disableEndpoint(trx: Db, ctx: AppContext, endpointId: string, reason: string): Promise<void> {
  const disabled = await trx
    .updateTable('webhook_endpoints')
    .set({ enabled: false, disabled_reason: reason, updated_at: sql`now()` })
    .where('id', '=', endpointId)
    .where('enabled', '=', true)
    .returning('url')
    .executeTakeFirst();
  if (!disabled) return;
  ctx.log.warn('webhook endpoint disabled', { endpointId, reason });
  const text = `SwapPoints stopped sending webhooks to ${disabled.url}.\n\n${reason}\n\nFix the receiver, then turn the endpoint on again on the Webhooks page (${ctx.settings.publicUrl}/admin/webhooks); what waited is sent then.`;
  for (const to of await allAdminEmails(trx, ctx.settings.adminEmails)) {
    await enqueueMail(trx, { to, subject: 'A webhook endpoint was disabled', text, kind: 'webhook_disabled' });
  }
}

async function record(ctx: AppContext, delivery: Claimed, outcome: Outcome): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const base = leased(trx, WEBHOOK_QUEUE, delivery.id, delivery.attempts);
    const common = { last_status_code: outcome.statusCode, last_error: outcome.error };
    let updated: { id: number } | undefined;
    let gaveUp = false;
    if (outcome.ok) {
      updated = await base.set({ ...common, status: 'succeeded', delivered_at: sql`now()`, next_attempt_at: null }).returning('id').executeTakeFirst();
    } else {
      const retryAt = new Date(Date.now() + retryDelaySeconds(delivery.attempts) * 1000);
      const until = new Date(delivery.retry_until);
      gaveUp = Date.now() >= until.getTime() || outcome.statusCode === 410;
      const next = retryAt < until ? retryAt : until;
      updated = await base
        .set({ ...common, status: gaveUp ? 'failed' : 'pending', next_attempt_at: gaveUp ? null : next })
        .returning('id')
        .executeTakeFirst();
    }
    if (!updated) return; // the lease ran out and another worker owns it now
    await trx
      .insertInto('webhook_attempts')
      .values({ delivery_id: delivery.id, status_code: outcome.statusCode, duration_ms: outcome.durationMs, error: outcome.error, response_excerpt: outcome.excerpt })
      .execute();
    const endpoint = await trx
      .updateTable('webhook_endpoints')
      .set({ consecutive_failures: outcome.ok ? 0 : sql`consecutive_failures + 1` })
      .where('id', '=', delivery.endpoint_id)
      .returning('consecutive_failures')
      .executeTakeFirst();
    if (!endpoint || outcome.ok) return;
    if (outcome.statusCode === 410) {
      await disableEndpoint(trx, ctx, delivery.endpoint_id, 'The receiver answered 410 Gone.');
    } else if (gaveUp && endpoint.consecutive_failures >= delivery.attempts) {
      // every attempt to this endpoint failed for the whole retry window: stop until someone fixes it
      await disableEndpoint(trx, ctx, delivery.endpoint_id, `Every attempt failed for 24 hours (${endpoint.consecutive_failures} in a row; the last: ${outcome.error}).`);
    }
  });
}

/**
 * Sends what is due (or just `onlyId`) and records each attempt. Never throws for a receiver's failure.
 * `resolve` answers the DNS questions (the system resolver unless a test stands in for the DNS).
 */
export async function deliverDueWebhooks(ctx: AppContext, options: { limit?: number; onlyId?: number; resolve?: Resolve } = {}): Promise<DeliveryReport> {
  const report: DeliveryReport = { claimed: 0, succeeded: 0, failed: 0 };
  const batch = await claim(ctx.db, options.limit ?? 20, options.onlyId);
  await Promise.all(
    batch.map(async (delivery) => {
      report.claimed++;
      const outcome = await send(ctx, delivery, options.resolve ?? systemResolve);
      await record(ctx, delivery, outcome);
      if (outcome.ok) report.succeeded++;
      else report.failed++;
    }),
  );
  return report;
}

/** The background job: drains everything due, batch by batch. */
export function deliverAllDueWebhooks(ctx: AppContext, signal?: AbortSignal): Promise<DeliveryReport> {
  return drainInBatches((limit) => deliverDueWebhooks(ctx, { limit }), undefined, signal);
}
