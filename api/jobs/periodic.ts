import { hostname } from 'node:os';
import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';

/** Names this process in background_job_runs.last_instance. */
export const INSTANCE_ID = `${hostname()}:${process.pid}`;

/**
 * Claims this period's run of a background job for this instance: true for exactly one of the
 * instances that ask while the job is due. One upsert moves next_run_at forward only where it has
 * passed; PostgreSQL re-checks that condition on the row it locked, so two instances asking at once
 * cannot both win. The period is a little shorter than the interval, so timer jitter on the winner
 * does not make it skip its own next tick.
 */
export async function claimJobRun(db: Db, name: string, everyMs: number): Promise<boolean> {
  const periodMs = Math.max(everyMs - Math.min(1_000, everyMs / 5), 1);
  const claimed = await sql<{ name: string }>`
    insert into background_job_runs as j (name, next_run_at, last_started_at, last_instance)
    values (${name}, now() + ${periodMs} * interval '1 millisecond', now(), ${INSTANCE_ID})
    on conflict (name) do update
       set next_run_at = excluded.next_run_at, last_started_at = excluded.last_started_at,
           last_instance = excluded.last_instance, runs = j.runs + 1
     where j.next_run_at <= now()
    returning j.name`.execute(db);
  return claimed.rows.length === 1;
}
