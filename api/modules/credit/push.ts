import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { CreditLedgerRow } from '#api/db/types.ts';
import type { PushOutcome } from '#api/integrations/shop/types.ts';
import { customerRef } from './service.ts';

/**
 * Pushing ledger rows to the shop (DESIGN "credit ledger"). A row is claimed with
 * FOR UPDATE SKIP LOCKED and leased (push_status 'pending', next_push_at = now + lease) in a short
 * transaction; the shop is called outside it, with the row id as the idempotency key; the outcome
 * is recorded only if the lease is still ours. Any number of instances can run this at once.
 */

/** How long a claimed row is left to its pusher before another worker may try it again. */
export const PUSH_LEASE_SECONDS = 300;
/** Automatic retries stop after this many attempts; an admin can still retry by hand. */
export const MAX_PUSH_ATTEMPTS = 10;
const BACKOFF_BASE_SECONDS = 30;
const BACKOFF_CAP_SECONDS = 6 * 3600;

/** Seconds to wait before the next automatic attempt after `attempts` failed ones: 30 s × 2^attempts, at most 6 h. */
export function pushBackoffSeconds(attempts: number): number {
  return Math.min(BACKOFF_CAP_SECONDS, BACKOFF_BASE_SECONDS * 2 ** Math.min(attempts, 20));
}

export interface PushReport {
  claimed: number;
  succeeded: number;
  failed: number;
}

async function claim(ctx: AppContext, limit: number, onlyId: number | undefined): Promise<CreditLedgerRow[]> {
  return ctx.db.transaction().execute(async (trx) => {
    let due = trx
      .selectFrom('credit_ledger')
      .select('id')
      .where('push_status', 'in', ['pending', 'failed'])
      .where('next_push_at', '<=', sql<Date>`now()`)
      .orderBy('next_push_at')
      .limit(limit)
      .forUpdate()
      .skipLocked();
    if (onlyId !== undefined) due = due.where('id', '=', onlyId);
    const ids = (await due.execute()).map((r) => r.id);
    if (ids.length === 0) return [];
    return trx
      .updateTable('credit_ledger')
      .set({
        push_status: 'pending',
        push_attempts: sql`push_attempts + 1`,
        next_push_at: sql`now() + make_interval(secs => ${PUSH_LEASE_SECONDS})`,
      })
      .where('id', 'in', ids)
      .returningAll()
      .execute();
  });
}

async function pushOne(ctx: AppContext, row: CreditLedgerRow): Promise<PushOutcome> {
  try {
    return await ctx.shop.pushCredit({
      ledgerId: row.id,
      amount: row.amount,
      currency: row.currency,
      customer: await customerRef(ctx, row.user_id),
      // push_attempts already counts this attempt: an earlier one may have reached the shop
      previousAttemptUnknown: row.push_attempts > 1,
    });
  } catch (error) {
    // A throw says nothing about whether the shop applied the credit: retry, and look first next time.
    return { status: 'failed', error: error instanceof Error ? error.message : String(error), retryable: true };
  }
}

async function record(ctx: AppContext, row: CreditLedgerRow, outcome: PushOutcome): Promise<void> {
  const base = ctx.db
    .updateTable('credit_ledger')
    .where('id', '=', row.id)
    .where('push_status', '=', 'pending')
    .where('push_attempts', '=', row.push_attempts);
  if (outcome.status === 'success') {
    await base
      .set({ push_status: 'success', external_transaction_id: outcome.transactionId, pushed_at: sql`now()`, last_push_error: null, next_push_at: null })
      .execute();
    return;
  }
  const again = outcome.retryable && row.push_attempts < MAX_PUSH_ATTEMPTS;
  await base
    .set({
      push_status: 'failed',
      last_push_error: outcome.error.slice(0, 2000) || 'The shop refused the credit.',
      next_push_at: again ? sql`now() + make_interval(secs => ${pushBackoffSeconds(row.push_attempts)})` : null,
    })
    .execute();
  ctx.log.warn('store credit push failed', { ledgerId: row.id, attempt: row.push_attempts, retryable: outcome.retryable, again, error: outcome.error });
}

/** Pushes due ledger rows (or just `onlyId`) to the shop and records each outcome. Never throws for a shop failure. */
export async function pushDueCredits(ctx: AppContext, options: { limit?: number; onlyId?: number } = {}): Promise<PushReport> {
  const report: PushReport = { claimed: 0, succeeded: 0, failed: 0 };
  const rows = await claim(ctx, options.limit ?? 20, options.onlyId);
  for (const row of rows) {
    report.claimed++;
    const outcome = await pushOne(ctx, row);
    await record(ctx, row, outcome);
    if (outcome.status === 'success') report.succeeded++;
    else report.failed++;
  }
  return report;
}

/** The background job: drains everything due, batch by batch. */
export async function pushAllDueCredits(ctx: AppContext): Promise<PushReport> {
  const total: PushReport = { claimed: 0, succeeded: 0, failed: 0 };
  for (;;) {
    const batch = await pushDueCredits(ctx, { limit: 20 });
    total.claimed += batch.claimed;
    total.succeeded += batch.succeeded;
    total.failed += batch.failed;
    if (batch.claimed < 20) return total;
  }
}
