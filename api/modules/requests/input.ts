import { DEFAULT_PAGE_SIZE } from '#api/lib/paging.ts';

/** Small helpers for reading what clients send. */

/** Trimmed text without NUL characters (PostgreSQL text cannot hold them); empty becomes null. */
export function cleanText(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const v = value.replace(/\u0000/g, '').trim();
  return v === '' ? null : v;
}

/** A case-insensitive substring pattern for `like` over lower-cased text, with %, _ and \ taken literally. */
export function containsPattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface PageRequest {
  page?: number;
  pageSize?: number;
}

export interface Page {
  limit: number;
  offset: number;
}

export { DEFAULT_PAGE_SIZE };

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

/** A yyyy-mm-dd date that exists on the calendar (years 1900 to 2999). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1900 || year > 2999 || month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}
