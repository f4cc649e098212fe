import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { Db } from '#api/db/connect.ts';
import type { CreditLedgerRow } from '#api/db/types.ts';
import type { PushOutcome } from '#api/integrations/shop/types.ts';
import { emitCreditEvent } from './webhook.ts';
import { customerRef } from '#api/modules/users/queries.ts';
import { exponentialSeconds } from '#api/jobs/backoff.ts';
import { drainInBatches, type BatchReport } from '#api/jobs/drain.ts';
import { claimDue, leased, release, type Queue } from '#api/jobs/queue.ts';

/**
 * Pushing ledger rows to the shop (DESIGN "credit ledger"). A row is claimed with
 * FOR UPDATE SKIP LOCKED and leased (push_status 'pending', next_push_at = now + lease) in a short
 * transaction; the shop is called outside it, with the row id as the idempotency key; the outcome
 * is recorded only if the lease is still ours. Any number of instances can run this at once.
 *
 * A push never outlives its lease (CREDIT_PUSH_LEASE_SECONDS): the batch gets a deadline at half
 * the lease from its claim; the shop backend sends nothing after it and abandons a request still in
 * flight, and rows of the batch not started by then are handed back. Otherwise a slow shop (throttle
 * waits, timeouts) could let a second worker claim the row and credit while the first still might.
 */

/** The share of the lease a push may use; the rest is margin for a request the shop is still running. */
const DEADLINE_SHARE_OF_LEASE = 0.5;
/** Automatic retries stop after this many attempts; an admin can still retry by hand. */
export const MAX_PUSH_ATTEMPTS = 10;

/**
 * Seconds to wait before the next automatic attempt after `attempts` failed ones: 30 s × 2^attempts,
 * at most 6 h. No jitter: a push is one row to one shop, and operators read the wait exactly.
 */
export function pushBackoffSeconds(attempts: number): number {
  return exponentialSeconds(attempts, 30, 6 * 3600);
}

/** The ledger as a job queue (api/jobs/queue.ts): a row waiting for the shop is a job, due at next_push_at. */
export const CREDIT_PUSH_QUEUE: Queue<'credit_ledger'> = {
  kind: 'credit-push',
  table: 'credit_ledger',
  columns: { status: 'push_status', attempts: 'push_attempts', dueAt: 'next_push_at', error: 'last_push_error' },
  claimable: ['pending', 'failed'],
  leasedStatus: 'pending',
  doneStatus: 'success',
};

export type PushReport = BatchReport;

/** Epoch ms by which a push claimed now must be over. */
export function pushDeadline(leaseSeconds: number, claimedAt = Date.now()): number {
  return claimedAt + leaseSeconds * 1000 * DEADLINE_SHARE_OF_LEASE;
}

async function pushOne(ctx: AppContext, row: CreditLedgerRow, deadline: number): Promise<PushOutcome> {
  try {
    return await ctx.shop.pushCredit({
      ledgerId: row.id,
      amount: row.amount,
      currency: row.currency,
      customer: await customerRef(ctx.db, row.user_id),
      // push_attempts already counts this attempt: an earlier one may have reached the shop
      previousAttemptUnknown: row.push_attempts > 1,
      deadline,
      expiresAt: row.expires_at ? new Date(row.expires_at).toISOString() : null,
    });
  } catch (error) {
    // A throw says nothing about whether the shop applied the credit: retry, and look first next time.
    return { status: 'failed', error: error instanceof Error ? error.message : String(error), retryable: true };
  }
}

const UNIQUE_VIOLATION = '23505';

const leasedRow = (db: Db, row: CreditLedgerRow) => leased(db, CREDIT_PUSH_QUEUE, row.id, row.push_attempts);

async function record(ctx: AppContext, row: CreditLedgerRow, outcome: PushOutcome): Promise<PushOutcome> {
  if (outcome.status === 'success') {
    const transactionId = outcome.transactionId;
    try {
      await ctx.db.transaction().execute(async (trx) => {
        const done = await leasedRow(trx, row)
          .set({ push_status: 'success', external_transaction_id: transactionId, pushed_at: sql`now()`, last_push_error: null, next_push_at: null })
          .returning('id')
          .executeTakeFirst();
        if (done) await emitCreditEvent(trx, 'credit.pushed', row.id);
      });
      ctx.metrics.creditPush('pushed');
      return outcome;
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      // another ledger row holds this shop transaction (the unique index): never count one credit twice
      outcome = { status: 'failed', error: `Shop transaction ${outcome.transactionId} is already recorded for another credit; will look again`, retryable: true };
    }
  }
  const again = outcome.retryable && row.push_attempts < MAX_PUSH_ATTEMPTS;
  const error = outcome.error;
  await ctx.db.transaction().execute(async (trx) => {
    const failed = await leasedRow(trx, row)
      .set({
        push_status: 'failed',
        last_push_error: error.slice(0, 2000) || 'The shop refused the credit.',
        next_push_at: again ? sql`now() + make_interval(secs => ${pushBackoffSeconds(row.push_attempts)})` : null,
      })
      .returning('id')
      .executeTakeFirst();
    if (failed) await emitCreditEvent(trx, 'credit.failed', row.id);
  });
  ctx.metrics.creditPush('failed');
  ctx.log.warn('store credit push failed', { ledgerId: row.id, attempt: row.push_attempts, retryable: outcome.retryable, again, error: outcome.error });
  return outcome;
}

/** Pushes due ledger rows (or just `onlyId`) to the shop and records each outcome. Never throws for a shop failure. */
export async function pushDueCredits(ctx: AppContext, options: { limit?: number; onlyId?: number } = {}): Promise<PushReport> {
  const report: PushReport = { claimed: 0, succeeded: 0, failed: 0 };
  const deadline = pushDeadline(ctx.settings.creditPushLeaseSeconds);
  const rows = await claimDue(ctx.db, CREDIT_PUSH_QUEUE, { limit: options.limit ?? 20, onlyId: options.onlyId, leaseSeconds: ctx.settings.creditPushLeaseSeconds });
  for (const [index, row] of rows.entries()) {
    if (Date.now() >= deadline) {
      await release(ctx.db, CREDIT_PUSH_QUEUE, rows.slice(index).map((r) => ({ id: r.id, attempts: r.push_attempts })));
      break;
    }
    report.claimed++;
    const outcome = await record(ctx, row, await pushOne(ctx, row, deadline));
    if (outcome.status === 'success') report.succeeded++;
    else report.failed++;
  }
  return report;
}

/** The background job: drains everything due, batch by batch. */
export function pushAllDueCredits(ctx: AppContext, signal?: AbortSignal): Promise<PushReport> {
  return drainInBatches((limit) => pushDueCredits(ctx, { limit }), undefined, signal);
}
