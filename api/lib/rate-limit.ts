import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';

export interface RateLimitResult {
  allowed: boolean;
  retryAfterSeconds: number;
}

/**
 * Counts one hit against `key` in a fixed window, in the database so that every server instance
 * shares the count. The upsert is atomic: concurrent hits are all counted.
 */
export async function hitRateLimit(db: Db, key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
  const windowMs = windowSeconds * 1000;
  const windowStart = new Date(Math.floor(Date.now() / windowMs) * windowMs);
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: windowStart, hits: 1 })
    .onConflict((oc) => oc.columns(['key', 'window_start']).doUpdateSet({ hits: sql`rate_limits.hits + 1` }))
    .returning('hits')
    .executeTakeFirstOrThrow();
  const retryAfterSeconds = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - Date.now()) / 1000));
  return { allowed: row.hits <= limit, retryAfterSeconds };
}

/** Old windows are of no use; the background sweep removes them. */
export async function pruneRateLimits(db: Db, olderThanSeconds = 24 * 3600): Promise<void> {
  await db.deleteFrom('rate_limits').where('window_start', '<', new Date(Date.now() - olderThanSeconds * 1000)).execute();
}
