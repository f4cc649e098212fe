import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';

/** How long one check may take before it counts as unreachable (a load balancer polls every few seconds). */
export const HEALTH_CHECK_TIMEOUT_MS = 5_000;

export interface Health {
  status: 'ok' | 'unavailable';
  database: 'ok' | 'unreachable';
  objectStore: 'ok' | 'unreachable';
  imageStore: 'local' | 's3';
}

async function reachable(ctx: AppContext, what: string, check: () => Promise<unknown>): Promise<'ok' | 'unreachable'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${HEALTH_CHECK_TIMEOUT_MS / 1000} s`)), HEALTH_CHECK_TIMEOUT_MS);
      }),
    ]);
    return 'ok';
  } catch (error) {
    // The reason goes to the log, not to the (public) answer.
    ctx.log.warn('health check failed', { what, error });
    return 'unreachable';
  } finally {
    clearTimeout(timer);
  }
}

/** Whether this instance can serve: its database and its object store both answer. */
export async function checkHealth(ctx: AppContext): Promise<Health> {
  const [database, objectStore] = await Promise.all([
    reachable(ctx, 'database', () => sql`select 1`.execute(ctx.db)),
    reachable(ctx, 'object store', () => ctx.images.check()),
  ]);
  return { status: database === 'ok' && objectStore === 'ok' ? 'ok' : 'unavailable', database, objectStore, imageStore: ctx.images.kind };
}
