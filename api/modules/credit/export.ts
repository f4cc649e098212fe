import { Elysia, t } from 'elysia';
import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { Db } from '#api/db/connect.ts';
import { PUSH_STATUSES, type PushStatus } from '#api/db/types.ts';
import { ErrorBody } from '#api/modules/auth/model.ts';
import type { AuthPlugin } from '#api/modules/auth/plugin.ts';
import { cleanText, containsPattern } from '#api/lib/text.ts';
import { csvLine } from '#api/lib/csv.ts';
import { creditRecordQuery, toCreditRecord } from './record.ts';
import { CREDIT_CSV_HEADER, creditCsvCells } from './rules.ts';

/**
 * GET /api/admin/credit-history/export.csv: the credit history as the admin filtered it (q, status),
 * newest first, streamed in keyset batches so a long history never sits in memory at once.
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
    .where('l.type', '=', 'exchange_credit');
  if (filter.status) query = query.where('l.push_status', '=', filter.status);
  const q = cleanText(filter.q);
  if (q) query = query.where(sql<string>`(l.user_id::text || ' ' || l.exchange_request_id::text)`, 'like', containsPattern(q));
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

export const CreditExportQuery = t.Object({
  q: t.Optional(t.String({ maxLength: 200, error: 'q must be at most 200 characters' })),
  status: t.Optional(t.Union(PUSH_STATUSES.map((s) => t.Literal(s)), { error: 'status must be one of pending, success, failed' })),
});

export function creditExportRoutes(ctx: AppContext, auth: AuthPlugin) {
  return new Elysia({ prefix: '/admin/credit-history', tags: ['Admin: credit history'] }).use(auth).get(
    '/export.csv',
    ({ query }) => {
      const lines = creditHistoryCsv(ctx.db, { q: query.q, status: query.status as PushStatus | undefined });
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const next = await lines.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value));
        },
        async cancel() {
          await lines.return(undefined);
        },
      });
      const day = new Date().toISOString().slice(0, 10);
      return new Response(body, {
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="credit-history-${day}.csv"`,
          'cache-control': 'no-store',
        },
      });
    },
    {
      admin: true,
      query: CreditExportQuery,
      response: { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      detail: { summary: 'The credit history as CSV (q: part of a user ID or exchange ID; status), newest first' },
    },
  );
}
