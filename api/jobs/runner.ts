import type { AppContext } from '#api/context.ts';
import { claimJobRun } from './periodic.ts';
import { jobsFor } from './registry.ts';

/** Shortly after start every job is due once (a restart does not wait an hour to prune). */
const FIRST_TICK_MS = 1_000;

/**
 * Starts every job on its interval; returns a stop function that starts no more runs, tells the
 * running ones to end after their batch in hand, and waits for them.
 */
export function startBackgroundJobs(ctx: AppContext): () => Promise<void> {
  const running = new Set<Promise<unknown>>();
  const stopping = new AbortController();
  const timers = jobsFor(ctx.settings).map((job) => {
    let busy = false;
    const tick = () => {
      if (busy || stopping.signal.aborted) return;
      busy = true;
      const run = claimJobRun(ctx.db, job.name, job.everyMs)
        .then((claimed) => (claimed ? job.run(ctx, stopping.signal) : undefined))
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
    stopping.abort();
    for (const { first, interval } of timers) {
      clearTimeout(first);
      clearInterval(interval);
    }
    await Promise.all(running);
  };
}
