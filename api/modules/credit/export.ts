import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';
import type { PushStatus } from '#api/db/types.ts';
import { csvLine } from '#api/lib/csv.ts';
import { ledgerWhere } from './queries.ts';
import { creditRecordQuery, toCreditRecord } from './record.ts';
import { CREDIT_CSV_HEADER, creditCsvCells } from './rules.ts';

/**
 * The credit history as CSV for GET /api/admin/credit-history/export.csv, as the admin filtered it
 * (q, status), newest first, read in keyset batches so a long history never sits in memory at once.
 */

const BATCH = 500;
/** Where the last batch ended: created_at as PostgreSQL's own text, so no microsecond is lost. */
interface Cursor {
  createdAt: string;
  id: number;
}

type BatchRow = Awaited<ReturnType<ReturnType<typeof batchQuery>['execute']>>[number];

function batchQuery(db: Db, filter: { q?: string; status?: PushStatus }, after: Cursor | null) {
  let query = creditRecordQuery(db)
    .select(['l.created_at', 'l.pushed_at', sql<string>`l.created_at::text`.as('cursor_at')])
    .where(ledgerWhere({ status: filter.status, q: filter.q, qMatchesEmail: true }));
  if (after) query = query.where(sql<boolean>`(l.created_at, l.id) < (${after.createdAt}::timestamptz, ${after.id}::bigint)`);
  return query.orderBy('l.created_at', 'desc').orderBy('l.id', 'desc').limit(BATCH);
}

/** The CSV text of the filtered history, produced batch by batch. */
export async function* creditHistoryCsv(db: Db, filter: { q?: string; status?: PushStatus }): AsyncGenerator<string> {
  yield `\uFEFF${csvLine(CREDIT_CSV_HEADER)}`;
  let after: Cursor | null = null;
  for (;;) {
    const rows: BatchRow[] = await batchQuery(db, filter, after).execute();
    if (rows.length === 0) return;
    yield rows
      .map((r) => {
        const pushedAt = r.pushed_at === null ? null : new Date(r.pushed_at).toISOString();
        return csvLine(creditCsvCells(toCreditRecord(r, { createdAt: new Date(r.created_at).toISOString(), pushedAt })));
      })
      .join('');
    if (rows.length < BATCH) return;
    const last: BatchRow = rows[rows.length - 1]!;
    after = { createdAt: last.cursor_at, id: Number(last.id) };
  }
}
