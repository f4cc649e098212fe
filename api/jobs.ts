import type { AppContext } from '#api/context.ts';
import { claimJobRun } from '#api/lib/job-claims.ts';
import { pruneExpiredRows } from '#api/prune.ts';
import { pushAllDueCredits } from '#api/modules/credit/push.ts';
import { removeUnattachedUploads } from '#api/modules/images/service.ts';
import { deliverAllDueWebhooks } from '#api/modules/webhooks/delivery.ts';
import { remindExpiringCredits } from '#api/modules/credit/expiry.ts';
import { nightlyBackup } from '#api/modules/backup/nightly.ts';
import type { Settings } from '#api/settings.ts';

export interface Job {
  name: string;
  everyMs: number;
  run: (ctx: AppContext) => Promise<unknown>;
}

/**
 * Background work. Every instance ticks every job, but each period's run is claimed in the
 * database (claimJobRun), so over several instances each job runs once per period.
 */
const JOBS: Job[] = [
  { name: 'mail-outbox', everyMs: 5_000, run: (ctx) => ctx.mailer.flush() },
  { name: 'credit-push', everyMs: 10_000, run: (ctx) => pushAllDueCredits(ctx) },
  { name: 'webhook-deliveries', everyMs: 2_000, run: (ctx) => deliverAllDueWebhooks(ctx) },
  { name: 'credit-expiry-reminders', everyMs: 3_600_000, run: (ctx) => remindExpiringCredits(ctx) },
  { name: 'remove-unattached-uploads', everyMs: 3_600_000, run: (ctx) => removeUnattachedUploads(ctx) },
  { name: 'prune-expired-rows', everyMs: 3_600_000, run: (ctx) => pruneExpiredRows(ctx) },
];

/**
 * The nightly backup, when BACKUP_DIR is set: once a day over every instance (claimed like the
 * rest), the first shortly after start unless one ran in the last day. Kept apart from JOBS so it
 * moves to the job runner (issue 23) as it is.
 */
export function backupJobs(settings: Settings): Job[] {
  return settings.backupDir ? [{ name: 'nightly-backup', everyMs: 86_400_000, run: (ctx) => nightlyBackup(ctx) }] : [];
}

/** Shortly after start every job is due once (a restart does not wait an hour to prune). */
const FIRST_TICK_MS = 1_000;

/** Starts every job on its interval; returns a stop function that waits for running jobs to finish. */
export function startBackgroundJobs(ctx: AppContext): () => Promise<void> {
  const running = new Set<Promise<unknown>>();
  const timers = [...JOBS, ...backupJobs(ctx.settings)].map((job) => {
    let busy = false;
    const tick = () => {
      if (busy) return;
      busy = true;
      const run = claimJobRun(ctx.db, job.name, job.everyMs)
        .then((claimed) => (claimed ? job.run(ctx) : undefined))
        .catch((error) => ctx.log.error('background job failed', { job: job.name, error }))
        .finally(() => {
          busy = false;
          running.delete(run);
        });
      running.add(run);
    };
    // The interval starts at the first tick: started together, the first tick and an interval
    // tick only everyMs - FIRST_TICK_MS apart would meet the claimed period exactly and skip one.
    const handles: { first: Timer; interval?: Timer } = {
      first: setTimeout(() => {
        tick();
        handles.interval = setInterval(tick, job.everyMs);
        handles.interval.unref?.();
      }, FIRST_TICK_MS),
    };
    handles.first.unref?.();
    return handles;
  });
  return async () => {
    for (const { first, interval } of timers) {
      clearTimeout(first);
      clearInterval(interval);
    }
    await Promise.all(running);
  };
}
