import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { Db } from '#api/db/connect.ts';
import type { PushStatus } from '#api/db/types.ts';
import { conflict, notFound } from '#api/lib/errors.ts';
import { pageOf, type ListResult, type PageRequest } from '#api/lib/paging.ts';
import type { CreditRecord } from '#api/modules/credit/model.ts';
import { pushDueCredits } from './push.ts';
import { ledgerWhere } from './queries.ts';
import { creditRecordQuery, toCreditRecord } from './record.ts';

export const CREDIT_RECORD_NOT_FOUND = 'Credit record not found';

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

const historyQuery = (db: Db) => creditRecordQuery(db).select(['l.created_at', 'l.pushed_at']);

type HistoryRow = Awaited<ReturnType<ReturnType<typeof historyQuery>['executeTakeFirstOrThrow']>>;

const fromHistoryRow = (row: HistoryRow) => toCreditRecord(row, { createdAt: iso(row.created_at)!, pushedAt: iso(row.pushed_at) });

export interface CreditHistoryFilter extends PageRequest {
  /** a part of the user ID or the exchange request ID */
  q?: string;
  status?: PushStatus;
}

/** GET /api/admin/credit-history: newest first; q matches the user ID or the exchange ID (trigram-indexed), or the customer's email. */
export async function listCreditHistory(db: Db, filter: CreditHistoryFilter = {}): Promise<ListResult<CreditRecord>> {
  const base = db.selectFrom('credit_ledger as l').where(ledgerWhere({ status: filter.status, q: filter.q, qMatchesEmail: true }));
  const page = pageOf(filter);
  let ids = base.select('l.id').orderBy('l.created_at', 'desc').orderBy('l.id', 'desc');
  if (page) ids = ids.limit(page.limit).offset(page.offset);
  const [idRows, count] = await Promise.all([
    ids.execute(),
    page ? base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow() : undefined,
  ]);
  if (idRows.length === 0) return { items: [], total: count ? Number(count.total) : 0 };
  const rows = await historyQuery(db)
    .where('l.id', 'in', idRows.map((r) => r.id))
    .orderBy('l.created_at', 'desc')
    .orderBy('l.id', 'desc')
    .execute();
  const items = rows.map(fromHistoryRow);
  return { items, total: count ? Number(count.total) : rows.length };
}

const parseLedgerId = (id: string | number | undefined) => {
  const text = String(id ?? '');
  return /^\d{1,15}$/.test(text) ? Number(text) : undefined;
};

export async function getCreditRecord(db: Db, id: string | number | undefined): Promise<CreditRecord> {
  const ledgerId = parseLedgerId(id);
  const row = ledgerId === undefined ? undefined : await historyQuery(db).where('l.id', '=', ledgerId).executeTakeFirst();
  if (!row) throw notFound(CREDIT_RECORD_NOT_FOUND);
  return fromHistoryRow(row);
}

/** POST /api/admin/credit-history/{id}/retry: a failed push is queued again and pushed at once. */
export async function retryCreditPush(ctx: AppContext, id: string | number | undefined): Promise<CreditRecord> {
  const ledgerId = parseLedgerId(id);
  if (ledgerId === undefined) throw notFound(CREDIT_RECORD_NOT_FOUND);
  const queued = await ctx.db
    .updateTable('credit_ledger')
    .set({ next_push_at: sql`now()` })
    .where('id', '=', ledgerId)
    .where('push_status', '=', 'failed')
    .returning('id')
    .executeTakeFirst();
  if (!queued) {
    const record = await getCreditRecord(ctx.db, ledgerId);
    throw conflict(
      record.pushStatus === 'success'
        ? 'This credit has already reached the shop; there is nothing to retry.'
        : 'This credit is being pushed to the shop right now; there is nothing to retry.',
    );
  }
  await pushDueCredits(ctx, { limit: 1, onlyId: ledgerId });
  return getCreditRecord(ctx.db, ledgerId);
}
