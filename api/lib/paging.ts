/** Paging shared by the API's lists and the pages that link to them (plain TypeScript: src imports it). */

/** The page size a list has when none is asked for. */
export const DEFAULT_PAGE_SIZE = 10;

export interface PageRequest {
  page?: number;
  pageSize?: number;
}

export interface Page {
  limit: number;
  offset: number;
}

/** One page of a list and the number of rows in the whole list. */
export interface ListResult<T> {
  items: T[];
  total: number;
}

/** An HTTP list asked for without page or pageSize: the spec's plain array, but never more than this. */
export const UNPAGED_LIST_LIMIT = 100;

/**
 * A list route's paging: what the client asked for, or the first UNPAGED_LIST_LIMIT rows when it
 * asked for none (the total is still in X-Total-Count), so no list answers with every row it has.
 */
export function pagedByDefault<T extends PageRequest>(query: T): T {
  return query.page === undefined && query.pageSize === undefined ? { ...query, page: 1, pageSize: UNPAGED_LIST_LIMIT } : query;
}

/** Paging when the client asked for it (page or pageSize given); null means "the whole list". */
export function pageOf(query: PageRequest): Page | null {
  if (query.page === undefined && query.pageSize === undefined) return null;
  const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
  return { limit: pageSize, offset: ((query.page ?? 1) - 1) * pageSize };
}

/**
 * A list's total when the page read tells it: a page that is not full ends the list (the first page
 * of a short list, as most are), and the whole list is all its rows. Undefined when only counting can
 * tell (a full page, or one past the end).
 */
export function totalFromPage(page: Page | null, rowsRead: number): number | undefined {
  if (!page) return rowsRead;
  const ended = rowsRead < page.limit && (rowsRead > 0 || page.offset === 0);
  return ended ? page.offset + rowsRead : undefined;
}

/** A list route's answer: the page's items, with the size of the whole list in X-Total-Count. */
export function listAnswer<T>(set: { headers: Record<string, unknown> }, { items, total }: ListResult<T>): T[] {
  set.headers['x-total-count'] = String(total);
  return items;
}
