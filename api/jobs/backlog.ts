import { sql, type RawBuilder } from 'kysely';
import type { Database } from '#api/db/types.ts';
import { deadWhere, waitingWhere, type AnyQueue } from './queue.ts';

/**
 * A job's items as /metrics counts them (`swappoints_jobs{kind, state}`): the rows of `table` it
 * will work on (`waiting`), when each is due, and those it gave up on. A queue's backlog is read
 * from its `Queue` (`queueBacklog`); a periodic job that finds its items by a scan rather than a
 * claim (the carrier-tracking poll) describes them itself, with the SQL its scan uses, and names it
 * as `backlog` in registry.ts.
 */
export interface Backlog {
  /** the metric's `kind` label: a fixed name, never a value from a row */
  kind: string;
  table: keyof Database;
  /** rows waiting for the job, now or later */
  waiting: (scope: BacklogScope) => RawBuilder<boolean>;
  /** when a waiting row is due */
  dueAt: RawBuilder<unknown>;
  /** rows the job gave up on: they wait for someone */
  failed: RawBuilder<boolean>;
}

/** What a job reads of its instance besides the database: the carrier polled (CARRIER; null when none). */
export interface BacklogScope {
  carrier: string | null;
}

/** A queue's backlog: claimable rows by their due time (a leased one is due when its lease ends), and its dead rows. */
export function queueBacklog(queue: AnyQueue): Backlog {
  return {
    kind: queue.metricsKind ?? queue.kind,
    table: queue.table,
    waiting: () => waitingWhere(queue),
    dueAt: sql.ref(queue.columns.dueAt),
    failed: deadWhere(queue),
  };
}
