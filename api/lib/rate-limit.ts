import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';

export interface RateLimitResult {
  allowed: boolean;
  retryAfterSeconds: number;
}

/**
 * Counts one hit against `key`, in the database so that every server instance shares the count.
 * A key's window starts at its first hit and lasts `windowSeconds`; the first hit after it starts
 * a new one. The upsert is atomic: concurrent hits are all counted, and only one of them can
 * start a new window.
 */
export async function hitRateLimit(db: Db, key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
  const now = new Date();
  const windowMs = windowSeconds * 1000;
  const windowEnded = sql<boolean>`rate_limits.window_start <= ${new Date(now.getTime() - windowMs)}`;
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: now, hits: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql`case when ${windowEnded} then 1 else rate_limits.hits + 1 end`,
        window_start: sql`case when ${windowEnded} then excluded.window_start else rate_limits.window_start end`,
      }),
    )
    .returning(['hits', 'window_start'])
    .executeTakeFirstOrThrow();
  const endsAt = new Date(row.window_start).getTime() + windowMs;
  const retryAfterSeconds = Math.max(1, Math.ceil((endsAt - now.getTime()) / 1000));
  return { allowed: row.hits <= limit, retryAfterSeconds };
}

/** Old windows are of no use; the background sweep removes them. */
export async function pruneRateLimits(db: Db, olderThanSeconds = 24 * 3600): Promise<void> {
  await db.deleteFrom('rate_limits').where('window_start', '<', new Date(Date.now() - olderThanSeconds * 1000)).execute();
}
