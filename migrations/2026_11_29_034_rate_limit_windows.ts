import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration never imports application code.

/**
 * A rate limit's window starts at a key's first hit, not on the clock's quarter hour: one row per
 * key. Windows aligned to the clock let twice the limit through on either side of a boundary, and
 * three hits within a second could be counted as two in one window and one in the next.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`delete from rate_limits r where exists (select 1 from rate_limits newer where newer.key = r.key and newer.window_start > r.window_start)`.execute(db);
  await sql`alter table rate_limits drop constraint rate_limits_pkey`.execute(db);
  await sql`alter table rate_limits add primary key (key)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table rate_limits drop constraint rate_limits_pkey`.execute(db);
  await sql`alter table rate_limits add primary key (key, window_start)`.execute(db);
}
