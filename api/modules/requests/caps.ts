import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';
import { AppError } from '#api/lib/errors.ts';
import { lockUser } from '#api/modules/users/queries.ts';
import { tooManyOpenMessage, tooManyTodayMessage } from './rules.ts';

/**
 * How many requests one customer may have: each one mails every admin and holds up to 25 MB of
 * images, so neither the open ones nor the new ones a day are unlimited.
 */
export interface RequestCaps {
  maxOpen: number;
  maxPerDay: number;
}

export { tooManyOpenMessage, tooManyTodayMessage };

/**
 * Refuses (429) a new request past either cap. Run inside the creating transaction: the user's row
 * is locked first, so two requests filed at once are counted one after the other.
 */
export async function enforceRequestCaps(trx: Db, userId: string, caps: RequestCaps): Promise<void> {
  await lockUser(trx, userId);
  const counts = await trx
    .selectFrom('exchange_requests')
    .select([
      sql<number>`count(*) filter (where status in ('pending', 'approved'))`.as('open'),
      sql<number>`count(*) filter (where created_at > now() - interval '24 hours')`.as('today'),
    ])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(counts.open) >= caps.maxOpen) throw new AppError(429, tooManyOpenMessage(caps.maxOpen));
  if (Number(counts.today) >= caps.maxPerDay) throw new AppError(429, tooManyTodayMessage(caps.maxPerDay), {}, { 'retry-after': '3600' });
}
