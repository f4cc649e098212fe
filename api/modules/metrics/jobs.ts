import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';
import type { Backlog, BacklogScope } from '#api/jobs/backlog.ts';
import { BACKLOGS } from '#api/jobs/registry.ts';

/**
 * The background work as it stands, read when /metrics is scraped: the items of every job in
 * api/jobs/registry.ts that has them (each queue, and each scanned backlog such as the carrier
 * polling's parcels), by state. `due`: waiting to be done now; `scheduled`: waiting for a later time
 * (a retry's backoff, a lease a worker holds right now, a parcel not yet late); `failed`: given up.
 * Where each kind keeps its state is its descriptor's (`Queue` in api/jobs/queue.ts, `Backlog`).
 */
export type JobState = 'due' | 'scheduled' | 'failed';
export interface JobCount {
  kind: string;
  state: JobState;
  count: number;
}

async function countsOf(db: Db, backlog: Backlog, scope: BacklogScope): Promise<JobCount[]> {
  const waiting = backlog.waiting(scope);
  const { rows } = await sql<Record<JobState, number | string>>`
    select count(*) filter (where ${waiting} and ${backlog.dueAt} <= now()) as due,
           count(*) filter (where ${waiting} and ${backlog.dueAt} > now()) as scheduled,
           count(*) filter (where ${backlog.failed}) as failed
      from ${sql.table(backlog.table)}`.execute(db);
  return (['due', 'scheduled', 'failed'] as const).map((state) => ({ kind: backlog.kind, state, count: Number(rows[0]?.[state] ?? 0) }));
}

/** Every kind's counts by state; `scope` is the instance's (its carrier), as its jobs read it. */
export async function jobCounts(db: Db, scope: BacklogScope): Promise<JobCount[]> {
  return (await Promise.all(BACKLOGS.map((backlog) => countsOf(db, backlog, scope)))).flat();
}

/** The periodic jobs (api/jobs/registry.ts): how often each has run, and when it last started. */
export async function periodicJobRuns(db: Db): Promise<{ job: string; runs: number; lastStartedAt: Date }[]> {
  const found = await db.selectFrom('background_job_runs').select(['name', 'runs', 'last_started_at']).execute();
  return found.map((r) => ({ job: r.name, runs: Number(r.runs), lastStartedAt: new Date(r.last_started_at) }));
}
