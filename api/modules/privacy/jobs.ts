import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import { exponentialSeconds, withJitter } from '#api/jobs/backoff.ts';
import { drainInBatches, type BatchReport } from '#api/jobs/drain.ts';
import { claimDue, leased, type Queue } from '#api/jobs/queue.ts';
import { runComplianceJob, scrubbedPayload } from './compliance-webhooks.ts';
import { removeMediaFiles } from './erase.ts';

/** Privacy work in the job loop (privacy_jobs): photo files of an erasure, Shopify's compliance webhooks. */
export const PRIVACY_QUEUE: Queue<'privacy_jobs'> = {
  kind: 'privacy',
  table: 'privacy_jobs',
  columns: { status: 'status', attempts: 'attempts', dueAt: 'due_at', error: 'last_error', result: 'result' },
  claimable: ['pending'],
  leasedStatus: 'pending',
  doneStatus: 'done',
};

const LEASE_SECONDS = 300;
/** Shopify expects a redact within 30 days: tries for about a week before giving up (then `jobs retry privacy:ID`). */
const MAX_ATTEMPTS = 12;
const retrySeconds = (attempts: number) => withJitter(exponentialSeconds(attempts, 60, 86_400), 0.1);

async function runBatch(ctx: AppContext, limit: number, onlyId?: number): Promise<BatchReport> {
  const batch = await claimDue(ctx.db, PRIVACY_QUEUE, { limit, leaseSeconds: LEASE_SECONDS, onlyId });
  const report: BatchReport = { claimed: batch.length, succeeded: 0, failed: 0 };
  for (const job of batch) {
    const id = Number(job.id);
    try {
      let result: string;
      if (job.kind === 'remove-media') {
        const { publicIds } = job.payload as { publicIds: string[] };
        await removeMediaFiles(ctx.images, publicIds);
        result = `${publicIds.length} photos removed`;
      } else {
        result = await runComplianceJob(ctx, { id, kind: job.kind, payload: job.payload });
      }
      await leased(ctx.db, PRIVACY_QUEUE, id, job.attempts)
        .set({ status: 'done', done_at: new Date(), result, last_error: null, payload: JSON.stringify(scrubbedPayload(job.payload)) })
        .execute();
      report.succeeded++;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const giveUp = job.attempts >= MAX_ATTEMPTS;
      await leased(ctx.db, PRIVACY_QUEUE, id, job.attempts)
        .set({ status: giveUp ? 'failed' : 'pending', last_error: message.slice(0, 1000), due_at: giveUp ? null : new Date(Date.now() + retrySeconds(job.attempts) * 1000) })
        .execute();
      ctx.log.warn('privacy job failed', { id, kind: job.kind, attempt: job.attempts, error: message, giveUp });
      report.failed++;
    }
  }
  return report;
}

/** Runs every due privacy job, batch by batch. */
export async function runDuePrivacyJobs(ctx: AppContext, signal?: AbortSignal): Promise<BatchReport> {
  return drainInBatches((limit) => runBatch(ctx, limit), 10, signal);
}

/** `jobs retry privacy:ID`: a failed (or still waiting) job is due now and run at once; false when it is done or unknown. */
export async function retryPrivacyJob(ctx: AppContext, id: number): Promise<boolean> {
  const queued = await ctx.db
    .updateTable('privacy_jobs')
    .set({ status: 'pending', due_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('status', 'in', ['failed', 'pending'])
    .returning('id')
    .executeTakeFirst();
  if (!queued) return false;
  await runBatch(ctx, 1, id);
  return true;
}
