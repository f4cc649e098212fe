import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { Db } from '#api/db/connect.ts';
import { conflict, notFound } from '#api/lib/errors.ts';
import { deadWhere, type AnyQueue } from './queue.ts';
import { QUEUE_JOBS } from './registry.ts';

/**
 * One place to see and retry the jobs of every queue (`swappoints jobs list`, `jobs retry`). A job
 * is named `<kind>:<id>` (`mail:12`, `credit-push:7`, `webhook:31`): the id is its row's in the
 * queue's table.
 *
 * States: `pending` (waiting for its first try or its lease), `retrying` (its last try failed; due
 * again at `dueAt`), `dead` (given up: it waits for someone to retry it), `done`.
 */
export const JOB_STATES = ['pending', 'retrying', 'dead', 'done'] as const;
export type JobState = (typeof JOB_STATES)[number];
export const JOB_NOT_FOUND = 'Job not found';
export const NOTHING_TO_RETRY = 'This job has not failed; there is nothing to retry.';

export interface JobRow {
  id: string;
  kind: string;
  state: JobState;
  status: string;
  attempts: number;
  dueAt: Date | null;
  lastError: string | null;
  /** what a done job produced, when its queue records it (a privacy export's path) */
  result: string | null;
  createdAt: Date;
}

export interface JobFilter {
  kind?: string;
  /** Only jobs whose last try failed: retrying or dead. */
  failed?: boolean;
  limit?: number;
}

export const jobKinds = (): string[] => [...QUEUE_JOBS.keys()];

/** The state of a queue's row, in SQL: the same reading for every queue. */
function stateOf(queue: AnyQueue) {
  const { status, error } = queue.columns;
  return sql<JobState>`case when ${sql.ref(status)} = ${queue.doneStatus} then 'done'
    when ${deadWhere(queue)} then 'dead'
    when ${sql.ref(error)} is not null then 'retrying' else 'pending' end`;
}

function rowsOf(queue: AnyQueue) {
  const { status, attempts, dueAt, error, result } = queue.columns;
  return sql`select ${queue.kind} as kind, id::bigint as row_id, ${stateOf(queue)} as state, ${sql.ref(status)}::text as status,
    ${sql.ref(attempts)}::int as attempts, ${sql.ref(dueAt)} as due_at, ${sql.ref(error)} as last_error,
    ${result ? sql.ref(result) : sql`null`}::text as result, created_at
    from ${sql.table(queue.table)}`;
}

interface Listed {
  kind: string;
  row_id: string | number;
  state: JobState;
  status: string;
  attempts: number;
  due_at: Date | null;
  last_error: string | null;
  result: string | null;
  created_at: Date;
}

const fromListed = (r: Listed): JobRow => ({
  id: `${r.kind}:${r.row_id}`,
  kind: r.kind,
  state: r.state,
  status: r.status,
  attempts: r.attempts,
  dueAt: r.due_at,
  lastError: r.last_error,
  result: r.result,
  createdAt: r.created_at,
});

/** Newest first, across every queue (or one kind). */
export async function listJobs(db: Db, filter: JobFilter = {}): Promise<JobRow[]> {
  const queues = [...QUEUE_JOBS.values()].map((q) => q.queue).filter((q) => filter.kind === undefined || q.kind === filter.kind);
  if (queues.length === 0) return [];
  const limit = filter.limit ?? 50;
  // each queue gives its own newest `limit` first, so no table is read past what can be shown
  const newest = (queue: AnyQueue) =>
    sql`(select * from (${rowsOf(queue)}) q ${filter.failed ? sql`where state in ('retrying', 'dead')` : sql``} order by created_at desc, row_id desc limit ${limit})`;
  const result = await sql<Listed>`
    select * from (${sql.join(queues.map(newest), sql` union all `)}) j
     order by created_at desc, row_id desc
     limit ${limit}`.execute(db);
  return result.rows.map(fromListed);
}

/** Reads `<kind>:<id>`; undefined when it names no job kind. */
export function parseJobId(value: string): { kind: string; id: number } | undefined {
  const match = /^([a-z-]+):(\d{1,15})$/.exec(value.trim());
  if (!match || !QUEUE_JOBS.has(match[1]!)) return undefined;
  return { kind: match[1]!, id: Number(match[2]) };
}

/** One job as listed, or 404. */
export async function getJob(db: Db, value: string): Promise<JobRow> {
  const ref = parseJobId(value);
  const queue = ref && QUEUE_JOBS.get(ref.kind)!.queue;
  const row = queue && (await sql<Listed>`select * from (${rowsOf(queue)}) j where row_id = ${ref.id}`.execute(db)).rows[0];
  if (!row) throw notFound(JOB_NOT_FOUND);
  return fromListed(row);
}

/** Queues a failed job again and runs it now (its kind's own retry); answers the job as it is after. */
export async function retryJob(ctx: AppContext, value: string): Promise<JobRow> {
  const before = await getJob(ctx.db, value);
  if (before.state !== 'dead' && before.state !== 'retrying') throw conflict(NOTHING_TO_RETRY);
  const ref = parseJobId(value)!;
  if (!(await QUEUE_JOBS.get(ref.kind)!.retry(ctx, ref.id))) throw conflict(NOTHING_TO_RETRY);
  return getJob(ctx.db, value);
}
