import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import type { Db } from '#api/db/connect.ts';
import { compiledOnce, preparedMark } from '#api/db/prepared.ts';
import type { Database, ExchangeRequestRow, RequestStatus } from '#api/db/types.ts';
import { notFound } from '#api/lib/errors.ts';
import { isUuid } from '#api/lib/request-meta.ts';
import { imagesOf } from '#api/modules/images/service.ts';
import { cleanText, containsPattern } from '#api/lib/text.ts';
import { pageOf, totalFromPage, type ListResult, type Page, type PageRequest } from '#api/lib/paging.ts';
import type { AdminExchangeRequest, CancelledRequest, ExchangeRequest, RequestCounts, WaitingCounts } from './model.ts';
import { CUSTOMER_NOT_FOUND, TAB_STATES, type AdminSort, type SortOrder, type WaitingFilter } from './rules.ts';
import { stateCondition } from './state-sql.ts';
import { toCancelledRequest, toExchangeRequest } from './serialize.ts';
import { readMark } from '#api/db/resilience.ts';

export { CUSTOMER_NOT_FOUND };
export const ADMIN_NOT_FOUND = 'Exchange request not found';

/** The admin dashboard's tabs 0-3 (spec §4). */
/** The admin dashboard's request tabs (pending, awaiting shipping, in transit, received); the page's ADMIN_TABS adds Credit History and Warehouse Manager. */
export const REQUEST_TABS = [0, 1, 2, 3] as const;
export type AdminTab = (typeof REQUEST_TABS)[number];

type RequestsQuery = SelectQueryBuilder<Database, 'exchange_requests', object>;
type Eb = ExpressionBuilder<Database, 'exchange_requests'>;

/** Tab membership (`TAB_STATES` in rules.ts), so each tab can walk an index: tab 0 the status index, tabs 1-3 the partial index on approved requests. */
export function tabFilter(eb: Eb, tab: AdminTab) {
  return stateCondition(eb, TAB_STATES[tab]);
}

// every column, so not prepared (prepared.ts): compiled once, as each detail page and action reads it
const requestById = compiledOnce(['id'], (db, p) => db.selectFrom('exchange_requests').selectAll().where('id', '=', p.id));

/** One request by id (any owner), or undefined; a malformed id is simply not found. */
export async function findRequest(db: Db, id: string | undefined): Promise<ExchangeRequestRow | undefined> {
  if (!isUuid(id)) return undefined;
  return (await requestById(db, { id }))[0];
}

/** The signed-in customer's own request, or 404 with the spec's text (someone else's looks missing). */
export async function ownRequestOr404(db: Db, userId: string, id: string | undefined): Promise<ExchangeRequestRow> {
  const row = await findRequest(db, id);
  if (!row || row.user_id !== userId) throw notFound(CUSTOMER_NOT_FOUND);
  return row;
}

export async function requestOr404(db: Db, id: string | undefined): Promise<ExchangeRequestRow> {
  const row = await findRequest(db, id);
  if (!row) throw notFound(ADMIN_NOT_FOUND);
  return row;
}

/** Serialises rows with their images (one query for all of them). */
export async function withImages(db: Db, rows: ExchangeRequestRow[]): Promise<ExchangeRequest[]> {
  const images = await imagesOf(db, rows.map((r) => r.id));
  return rows.map((row) => toExchangeRequest(row, images.get(row.id) ?? []));
}

/**
 * Newest first. The tie-break on id runs the same way as the indexes' (created_at desc, id), so a
 * page is read straight off an index. With paging, the total comes from the trigger-kept counter
 * when the filter is exactly one counted bucket, otherwise from count(*).
 */
const SORT_COLUMNS = { date: 'created_at', product: 'product_name', brand: 'brand', condition: 'condition', email: 'customer_email' } as const;

/** A list's rows in its order, one page of them when paged. */
function inListOrder(base: RequestsQuery, sort: { sort?: AdminSort; order?: SortOrder }, page: Page | null) {
  let rowsQuery = base.selectAll().orderBy(SORT_COLUMNS[sort.sort ?? 'date'], sort.order ?? 'desc');
  if (sort.sort && sort.sort !== 'date') rowsQuery = rowsQuery.orderBy('created_at', 'desc');
  rowsQuery = rowsQuery.orderBy('id', 'asc');
  return page ? rowsQuery.limit(page.limit).offset(page.offset) : rowsQuery;
}

async function runList(
  db: Db,
  base: RequestsQuery,
  paging: PageRequest,
  bucket: string | null = null,
  sort: { sort?: AdminSort; order?: SortOrder } = {},
): Promise<{ rows: ExchangeRequestRow[]; total: number }> {
  const page = pageOf(paging);
  const rows = await inListOrder(base, sort, page).execute();
  return { rows, total: totalFromPage(page, rows.length) ?? (await countOf(db, base, bucket)) };
}

// exchange_request_counts (migration 003) is kept by triggers, not written by the application
const bucketCount = compiledOnce(['bucket'], (_db, p) => sql<{ n: string }>`select ${preparedMark('request-count')} ${readMark} n from exchange_request_counts where bucket = ${p.bucket}`);

const bucketCounts = compiledOnce(['buckets'], (_db, p) =>
  sql<{ bucket: string; n: string }>`select ${preparedMark('request-counts')} ${readMark} bucket, n from exchange_request_counts where bucket = any(${p.buckets}::text[])`,
);

/** A filter's total from its trigger-kept counter, or undefined when it has none. */
async function countedIn(db: Db, bucket: string | null): Promise<number | undefined> {
  if (!bucket) return undefined;
  const [row] = await bucketCount(db, { bucket });
  return row ? Number(row.n) : undefined;
}

async function countOf(db: Db, base: RequestsQuery, bucket: string | null): Promise<number> {
  const counted = await countedIn(db, bucket);
  if (counted !== undefined) return counted;
  const row = await base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow();
  return Number(row.total);
}

/** The counter that holds an admin filter's total, if one does (no search; tab or status, not both). */
function bucketOf(filter: { q?: string; status?: RequestStatus; tab?: AdminTab; waiting?: WaitingFilter; flagged?: boolean }): string | null {
  if (cleanText(filter.q) || filter.waiting || filter.flagged) return null;
  if (filter.tab !== undefined && filter.status === undefined) return `tab:${filter.tab}`;
  if (filter.tab === undefined && filter.status !== undefined) return `status:${filter.status}`;
  if (filter.tab === undefined && filter.status === undefined) return 'all';
  return null;
}

export interface CustomerListFilter extends PageRequest {
  q?: string;
  status?: RequestStatus;
}

/** GET /api/exchange: the customer's own requests, newest first; q searches product name, brand and description. */
export async function listCustomerRequests(db: Db, userId: string, filter: CustomerListFilter): Promise<ListResult<ExchangeRequest>> {
  let base = db.selectFrom('exchange_requests').where('user_id', '=', userId);
  if (filter.status) base = base.where('status', '=', filter.status);
  const q = cleanText(filter.q);
  if (q) {
    const like = containsPattern(q);
    base = base.where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['product_name']), 'like', like),
        eb(eb.fn('lower', ['brand']), 'like', like),
        eb(eb.fn('lower', ['description']), 'like', like),
      ]),
    );
  }
  const { rows, total } = await runList(db, base, filter);
  return { items: await withImages(db, rows), total };
}

/**
 * GET /api/exchange/cancelled: what the customer cancelled, last cancelled first; q searches product
 * name and brand. Only the customer's own cancellations are recorded here (an admin's deletion is not).
 */
export async function listCancelledRequests(db: Db, userId: string, filter: PageRequest & { q?: string }): Promise<ListResult<CancelledRequest>> {
  let base = db.selectFrom('cancelled_requests').where('user_id', '=', userId);
  const q = cleanText(filter.q);
  if (q) {
    const like = containsPattern(q);
    base = base.where((eb) => eb.or([eb(eb.fn('lower', ['product_name']), 'like', like), eb(eb.fn('lower', ['brand']), 'like', like)]));
  }
  const page = pageOf(filter);
  let rowsQuery = base.selectAll().orderBy('cancelled_at', 'desc').orderBy('request_id', 'asc');
  if (page) rowsQuery = rowsQuery.limit(page.limit).offset(page.offset);
  const [rows, counted] = await Promise.all([
    rowsQuery.execute(),
    page ? base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow() : undefined,
  ]);
  return { items: rows.map(toCancelledRequest), total: counted ? Number(counted.total) : rows.length };
}

export interface AdminListFilter extends PageRequest {
  q?: string;
  status?: RequestStatus;
  tab?: AdminTab;
  /** only requests with a risk flag */
  flagged?: boolean;
  sort?: AdminSort;
  order?: SortOrder;
  waiting?: WaitingFilter;
}

/** The "waiting" filters (issue 24): each walks a partial index of migration 015. */
function waitingFilter(eb: Eb, waiting: WaitingFilter) {
  if (waiting === 'offers') return eb('offer_status', '=', 'pending');
  return eb.and([eb('return_choice', '=', 'return'), eb('returned_at', 'is', null)]);
}

type AdminFilter = { status?: RequestStatus; tab?: AdminTab; waiting?: WaitingFilter; flagged?: boolean };

/** The admin filters; `like` is the search's pattern (containsPattern). */
function adminBase(db: Db, filter: AdminFilter, like?: string) {
  let base = db.selectFrom('exchange_requests');
  const waiting = filter.waiting;
  if (waiting) base = base.where((eb) => waitingFilter(eb, waiting));
  if (filter.flagged) base = base.where(({ exists, selectFrom }) => exists(selectFrom('risk_flags').select('risk_flags.request_id').whereRef('risk_flags.request_id', '=', 'exchange_requests.id')));
  if (filter.tab !== undefined) {
    const tab = filter.tab;
    base = base.where((eb) => tabFilter(eb, tab));
  }
  if (filter.status) base = base.where('status', '=', filter.status);
  // search_text is lower(product_name || ' ' || brand || ' ' || customer_email), trigram-indexed
  if (like !== undefined) base = base.where('search_text', 'like', like);
  return base;
}

const searchPattern = (q: string | undefined) => {
  const text = cleanText(q);
  return text ? containsPattern(text) : undefined;
};

type AdminShape = AdminFilter & { sort?: AdminSort; order?: SortOrder; search: boolean; paged: boolean };

function adminStatements(shape: AdminShape) {
  const base = (db: Db, like: never) => adminBase(db, shape, shape.search ? like : undefined);
  return {
    rows: compiledOnce(['like', 'limit', 'offset'], (db, p) => inListOrder(base(db, p.like), shape, shape.paged ? { limit: p.limit, offset: p.offset } : null)),
    count: compiledOnce(['like'], (db, p) => base(db, p.like).select((eb) => eb.fn.countAll<string>().as('total'))),
  };
}

/**
 * The queue's statements, compiled once for each shape of filter (tab, status, waiting, flagged,
 * sort, whether it searches and pages), with the search pattern and the page as parameters. Every
 * part of a shape is one of a fixed set, so the shapes are few and all are kept.
 */
const adminStatementsByShape = new Map<string, ReturnType<typeof adminStatements>>();

function adminStatementsFor(shape: AdminShape) {
  const key = [shape.tab, shape.status, shape.waiting, shape.flagged, shape.sort, shape.order, shape.search, shape.paged].join('|');
  let statements = adminStatementsByShape.get(key);
  if (!statements) adminStatementsByShape.set(key, (statements = adminStatements(shape)));
  return statements;
}

/** GET /api/admin/exchange-requests: every request, newest first unless sorted, by tab and status; q searches product, brand and email. */
export async function listAdminRequests(db: Db, filter: AdminListFilter): Promise<ListResult<AdminExchangeRequest>> {
  const like = searchPattern(filter.q);
  const page = pageOf(filter);
  const { tab, status, waiting, flagged, sort, order } = filter;
  const statements = adminStatementsFor({ tab, status, waiting, flagged, sort, order, search: like !== undefined, paged: page !== null });
  const total = async () => (await countedIn(db, bucketOf(filter))) ?? Number((await statements.count(db, { like }))[0]!.total);
  const [rows, counted] = await Promise.all([statements.rows(db, { like, limit: page?.limit, offset: page?.offset }), page ? total() : undefined]);
  const items = await withImages(db, rows);
  return { items: items.map((item, i) => ({ ...item, userEmail: rows[i]!.customer_email })), total: counted ?? rows.length };
}

/** The admin tab badges: how many requests each of tabs 0-3 holds (matching q when given). */
export async function countAdminTabs(db: Db, filter: { q?: string } = {}): Promise<RequestCounts> {
  const like = searchPattern(filter.q);
  const buckets = REQUEST_TABS.map((tab) => bucketOf({ ...filter, tab }));
  // with no search every tab has a counter: the four are read in one statement, not four
  const counted = buckets.every(Boolean) ? new Map((await bucketCounts(db, { buckets })).map((row) => [row.bucket, Number(row.n)])) : new Map<string, number>();
  const counts = await Promise.all(REQUEST_TABS.map((tab, i) => counted.get(buckets[i]!) ?? countOf(db, adminBase(db, { tab }, like), buckets[i]!)));
  const [pending, awaitingShipping, inTransit, received] = counts as [number, number, number, number];
  return { pending, awaitingShipping, inTransit, received };
}

/** How many offers wait for their customer and how many returns wait to be shipped. */
export async function countWaiting(db: Db): Promise<WaitingCounts> {
  const [offersWaiting, returnsToShip] = await Promise.all((['offers', 'returns'] as const).map((waiting) => countOf(db, adminBase(db, { waiting }), null)));
  return { offersWaiting: offersWaiting!, returnsToShip: returnsToShip! };
}
