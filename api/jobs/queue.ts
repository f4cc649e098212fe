import { sql, type Kysely, type Selectable, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import type { Db } from '#api/db/connect.ts';
import type { Database } from '#api/db/types.ts';

/**
 * The one claim-and-lease for every job queue. A queue is a table whose rows are the jobs: the row
 * a job acts on carries its state (status, attempts, when it is due, its last error), so finishing a
 * job and recording what it did are one conditional update. A `Queue` names those columns (the
 * table also has `id` and `created_at`, which `jobs list` reads).
 *
 * Claiming takes due rows with FOR UPDATE SKIP LOCKED in a short transaction and leases them
 * (attempts + 1, due again only when the lease ends); the work runs outside it; its outcome is
 * recorded only while the lease is still ours (`leased`). Any number of instances can run a queue at
 * once without running a job twice, and a worker that dies mid-way leaves its jobs to the next one
 * when the lease ends.
 */
export interface Queue<T extends QueueTable = QueueTable> {
  /** The name `swappoints jobs` shows and takes (`--kind mail`, `jobs retry mail:12`). */
  kind: string;
  table: T;
  columns: {
    status: string & keyof Database[T];
    attempts: string & keyof Database[T];
    dueAt: string & keyof Database[T];
    error: string & keyof Database[T];
    /** what a done job produced, for the operator (a privacy export's path); listed by `jobs list` */
    result?: string & keyof Database[T];
    /** when a done job was sent (an outbox's message): what `pruneSent` reads */
    sentAt?: string & keyof Database[T];
  };
  /** Statuses a due row may be claimed in. */
  claimable: readonly string[];
  /** The status a claimed row holds while leased (it stays claimable once the lease ends). */
  leasedStatus: string;
  /** The status of a finished job. */
  doneStatus: string;
  /** Extra SQL a claimable row must match (webhooks: its endpoint is enabled). */
  alsoWhere?: ReturnType<typeof sql<boolean>>;
  /** Its `kind` label in /metrics when that is not `kind` (webhooks: `webhooks`, which dashboards read). */
  metricsKind?: string;
}

/** A queue whose done jobs are messages sent, kept MAIL_RETENTION_DAYS (mail, WhatsApp). */
export type Outbox<T extends QueueTable = QueueTable> = Queue<T> & { columns: { sentAt: string & keyof Database[T] } };

/** The tables that are queues today; a new job kind adds its table here and a `Queue` beside its worker. */
export type QueueTable = 'mail_outbox' | 'credit_ledger' | 'webhook_deliveries' | 'whatsapp_outbox' | 'privacy_jobs';

/** A queue over any of the queue tables. */
export type AnyQueue = { [T in QueueTable]: Queue<T> }[QueueTable];

/**
 * A row its queue gave up on, in SQL: not done, and no longer claimable (its status is not, or it
 * has no due time: credit pushes keep `failed` and a due time while they retry, and drop the due
 * time when they give up). `jobs list` calls it `dead`, /metrics `failed`.
 */
export function deadWhere(queue: AnyQueue) {
  const { status, dueAt } = queue.columns;
  return sql<boolean>`(${sql.ref(status)} <> ${queue.doneStatus} and (${sql.ref(status)} not in (${sql.join(queue.claimable)}) or ${sql.ref(dueAt)} is null))`;
}

/** A row waiting to be claimed, now or at its due time (a leased row waits for its lease to end). */
export function waitingWhere(queue: AnyQueue) {
  const { status, dueAt } = queue.columns;
  return sql<boolean>`(${sql.ref(status)} in (${sql.join(queue.claimable)}) and ${sql.ref(dueAt)} is not null)`;
}

export interface ClaimOptions {
  limit: number;
  leaseSeconds: number;
  /** Claim only this row (a retry by hand), still only if it is due. */
  onlyId?: number;
}

/** Claims and leases up to `limit` due jobs, oldest due first. */
export async function claimDue<T extends QueueTable>(db: Db, queue: Queue<T>, options: ClaimOptions): Promise<Selectable<Database[T]>[]> {
  const { status, attempts, dueAt } = queue.columns;
  return db.transaction().execute(async (trx) => {
    const due = await sql<{ id: number | string }>`
      select id from ${sql.table(queue.table)}
       where ${sql.ref(status)} in (${sql.join(queue.claimable)}) and ${sql.ref(dueAt)} <= now()
         ${queue.alsoWhere ? sql`and ${queue.alsoWhere}` : sql``}
         ${options.onlyId !== undefined ? sql`and id = ${options.onlyId}` : sql``}
       order by ${sql.ref(dueAt)}, id
       limit ${options.limit}
         for update skip locked`.execute(trx);
    const ids = due.rows.map((r) => Number(r.id));
    if (ids.length === 0) return [];
    const claimed = await sql<Selectable<Database[T]>>`
      update ${sql.table(queue.table)}
         set ${sql.ref(status)} = ${queue.leasedStatus}, ${sql.ref(attempts)} = ${sql.ref(attempts)} + 1,
             ${sql.ref(dueAt)} = now() + make_interval(secs => ${options.leaseSeconds})
       where id in (${sql.join(ids)})
      returning *`.execute(trx);
    const order = new Map(ids.map((id, index) => [id, index]));
    return claimed.rows.sort((a, b) => order.get(Number((a as { id: unknown }).id))! - order.get(Number((b as { id: unknown }).id))!);
  });
}

/**
 * An update of one claimed job that applies only while this worker's lease holds: the row is still
 * leased and nobody has claimed it since (its attempts are the ones this claim made). Add `.set(…)`.
 */
export function leased<T extends QueueTable>(db: Db, queue: Queue<T>, id: number, attempts: number): UpdateQueryBuilder<Database, T, T, UpdateResult> {
  const { status, attempts: attemptsColumn } = queue.columns;
  // the table is a type parameter: Kysely cannot check a column of a union of tables, so the caller's set() is typed by T instead
  return (db as unknown as Kysely<any>)
    .updateTable(queue.table as string)
    .where('id', '=', id)
    .where(status as string, '=', queue.leasedStatus)
    .where(attemptsColumn as string, '=', attempts) as unknown as UpdateQueryBuilder<Database, T, T, UpdateResult>;
}

/** Hands back jobs this worker claimed but did not start: due again at once, the claim not counted. */
export async function release<T extends QueueTable>(db: Db, queue: Queue<T>, jobs: { id: number; attempts: number }[]): Promise<void> {
  const { status, attempts, dueAt } = queue.columns;
  for (const job of jobs) {
    await sql`
      update ${sql.table(queue.table)} set ${sql.ref(attempts)} = ${sql.ref(attempts)} - 1, ${sql.ref(dueAt)} = now()
       where id = ${job.id} and ${sql.ref(status)} = ${queue.leasedStatus} and ${sql.ref(attempts)} = ${job.attempts}`.execute(db);
  }
}

/**
 * Puts a job its queue gave up on (status `failed`) back as due now, for `jobs retry`; false when
 * there is no such job. For the outboxes whose dead state is `failed` (mail, WhatsApp).
 */
export async function requeueFailed<T extends QueueTable>(db: Db, queue: Queue<T>, id: number): Promise<boolean> {
  const { status, dueAt } = queue.columns;
  const { rows } = await sql`
    update ${sql.table(queue.table)} set ${sql.ref(status)} = ${queue.leasedStatus}, ${sql.ref(dueAt)} = now()
     where id = ${id} and ${sql.ref(status)} = 'failed'
     returning id`.execute(db);
  return rows.length > 0;
}

/** Deletes an outbox's messages sent more than `retentionDays` ago (MAIL_RETENTION_DAYS); unsent and failed ones stay for the operator. */
export async function pruneSent<T extends QueueTable>(db: Db, outbox: Outbox<T>, retentionDays: number): Promise<number> {
  const { status, sentAt } = outbox.columns;
  // the table is a type parameter, as in leased()
  const result = await (db as unknown as Kysely<any>)
    .deleteFrom(outbox.table as string)
    .where(status as string, '=', outbox.doneStatus)
    .where(sentAt as string, '<', sql<Date>`now() - make_interval(days => ${retentionDays})`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
