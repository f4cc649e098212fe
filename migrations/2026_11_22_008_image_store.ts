import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration never imports application code.

/**
 * One row per background job, shared by every instance over this database: a run starts only by
 * moving next_run_at forward while it is due, so of several instances ticking at once exactly one
 * runs the job each period.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table background_job_runs (
      name text primary key,
      next_run_at timestamptz not null,
      last_started_at timestamptz not null,
      last_instance text not null,
      runs bigint not null default 1
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table background_job_runs`.execute(db);
}
