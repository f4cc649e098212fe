/**
 * The admin dashboard's state lives in its URL (`/admin?tab=N&q=…&page=…&pageSize=…`), so every
 * tab, search and page can be linked to, reloaded and rendered on the server.
 */

import { DEFAULT_PAGE_SIZE } from '#api/lib/paging.ts';
import { ADMIN_SORTS, defaultAdminOrder, WAITING_FILTERS, type AdminSort, type SortOrder, type WaitingFilter } from '#api/modules/requests/rules.ts';

export const ADMIN_TABS = [
  { label: 'Pending Requests', count: 'pending' },
  { label: 'Approved (Awaiting Shipping)', count: 'awaitingShipping' },
  { label: 'In Transit', count: 'inTransit' },
  { label: 'Received (Pending Credit)', count: 'received' },
  { label: 'Credit History' },
  { label: 'Warehouse Manager' },
] as const;

export const CREDIT_HISTORY_TAB = 4;
export const WAREHOUSE_TAB = 5;
export const REQUEST_PAGE_SIZES = [10, 25, 50] as const;
export const CREDIT_PAGE_SIZES = [5, 10, 25] as const;
export { DEFAULT_PAGE_SIZE };

export interface AdminView {
  tab: number;
  q: string;
  page: number;
  pageSize: number;
  /** the queue's order (tabs 0-3); the tab's default when absent from the URL */
  sort?: AdminSort;
  order?: SortOrder;
  /** the queue's "waiting" filter (offers waiting, returns to ship) instead of a tab */
  waiting?: WaitingFilter;
  /** tabs 0-3: only requests with a risk flag (`flagged=1`) */
  flagged?: boolean;
}

const wholeNumber = (value: string | null, min: number, max: number): number | null => {
  if (value === null || !/^\d{1,7}$/.test(value)) return null;
  const n = Number(value);
  return n >= min && n <= max ? n : null;
};

/** Reads the view from a query string; anything malformed falls back to the default. */
export function parseAdminView(query: string | undefined): AdminView {
  const params = new URLSearchParams(query ?? '');
  const tab = wholeNumber(params.get('tab'), 0, ADMIN_TABS.length - 1) ?? 0;
  const sizes: readonly number[] = tab === CREDIT_HISTORY_TAB ? CREDIT_PAGE_SIZES : REQUEST_PAGE_SIZES;
  const size = wholeNumber(params.get('pageSize'), 1, 100);
  const fallback = defaultAdminOrder(tab);
  const sort = (ADMIN_SORTS as readonly string[]).includes(params.get('sort') ?? '') ? (params.get('sort') as AdminSort) : fallback.sort;
  const order = params.get('order') === 'asc' || params.get('order') === 'desc' ? (params.get('order') as SortOrder) : fallback.order;
  const waiting = params.get('waiting') ?? '';
  return {
    tab,
    ...(tab < CREDIT_HISTORY_TAB && waiting in WAITING_FILTERS ? { waiting: waiting as WaitingFilter } : {}),
    sort,
    order,
    q: (params.get('q') ?? '').trim().slice(0, 200),
    page: wholeNumber(params.get('page'), 1, 1_000_000) ?? 1,
    pageSize: size !== null && sizes.includes(size) ? size : DEFAULT_PAGE_SIZE,
    flagged: tab <= 3 && params.get('flagged') === '1',
  };
}

/** The URL of a view; defaults are left out (`/admin`, `/admin?tab=2&q=canon`). */
export function adminHref(view: Partial<AdminView>): AdminHref {
  const params = new URLSearchParams();
  if (view.tab) params.set('tab', String(view.tab));
  if (view.waiting) params.set('waiting', view.waiting);
  if (view.q) params.set('q', view.q);
  if (view.page && view.page > 1) params.set('page', String(view.page));
  if (view.pageSize && view.pageSize !== DEFAULT_PAGE_SIZE) params.set('pageSize', String(view.pageSize));
  const fallback = defaultAdminOrder(view.tab ?? 0);
  if ((view.sort && view.sort !== fallback.sort) || (view.order && view.order !== fallback.order)) {
    params.set('sort', view.sort ?? fallback.sort);
    params.set('order', view.order ?? fallback.order);
  }
  if (view.flagged && (view.tab ?? 0) <= 3) params.set('flagged', '1');
  const query = params.toString();
  return query ? `/admin?${query}` : '/admin';
}

export type AdminHref = '/admin' | `/admin?${string}`;
