import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';

/** A spent or expired link is kept a day, so a second click still hears "already used" or "expired". */
const KEEP_SPENT_LINKS_HOURS = 24;

/** Deletes sessions that can never be used again: past their expiry, idle past SESSION_IDLE_HOURS, or revoked. */
export async function pruneSessions(db: Db, idleHours: number): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where((eb) =>
      eb.or([
        eb('expires_at', '<', sql<Date>`now()`),
        eb('last_seen_at', '<', sql<Date>`now() - make_interval(hours => ${idleHours})`),
        eb('revoked_at', 'is not', null),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes sign-in links used or expired more than a day ago. */
export async function pruneSignInTokens(db: Db): Promise<number> {
  const result = await db
    .deleteFrom('sign_in_tokens')
    .where(sql<Date>`coalesce(used_at, expires_at)`, '<', sql<Date>`now() - make_interval(hours => ${KEEP_SPENT_LINKS_HOURS})`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
