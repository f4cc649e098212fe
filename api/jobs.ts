import type { AppContext } from '#api/context.ts';
import { pruneRateLimits } from '#api/lib/rate-limit.ts';
import { pushAllDueCredits } from '#api/modules/credit/push.ts';
import { removeUnattachedUploads } from '#api/modules/images/service.ts';

interface Job {
  name: string;
  everyMs: number;
  run: (ctx: AppContext) => Promise<unknown>;
}

/** Background work every server instance runs; each job is safe to run on several instances at once. */
const JOBS: Job[] = [
  { name: 'mail-outbox', everyMs: 5_000, run: (ctx) => ctx.mailer.flush() },
  { name: 'credit-push', everyMs: 10_000, run: (ctx) => pushAllDueCredits(ctx) },
  { name: 'prune-rate-limits', everyMs: 3_600_000, run: (ctx) => pruneRateLimits(ctx.db) },
  { name: 'remove-unattached-uploads', everyMs: 3_600_000, run: (ctx) => removeUnattachedUploads(ctx) },
  {
    name: 'prune-sign-in-tokens',
    everyMs: 3_600_000,
    run: (ctx) => ctx.db.deleteFrom('sign_in_tokens').where('expires_at', '<', new Date(Date.now() - 7 * 86_400_000)).execute(),
  },
];

/** Starts every job on its interval; returns a stop function that waits for running jobs to finish. */
export function startBackgroundJobs(ctx: AppContext): () => Promise<void> {
  const running = new Set<Promise<unknown>>();
  const timers = JOBS.map((job) => {
    let busy = false;
    const tick = () => {
      if (busy) return;
      busy = true;
      const run = job
        .run(ctx)
        .catch((error) => ctx.log.error('background job failed', { job: job.name, error }))
        .finally(() => {
          busy = false;
          running.delete(run);
        });
      running.add(run);
    };
    const timer = setInterval(tick, job.everyMs);
    timer.unref?.();
    return timer;
  });
  return async () => {
    timers.forEach(clearInterval);
    await Promise.all(running);
  };
}
