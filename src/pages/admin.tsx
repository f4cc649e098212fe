import type { PageProps } from 'waku/router';
import { Link } from 'waku';
import { unstable_redirect as redirect } from 'waku/router/server';
import type { AdminExchangeRequest, RequestCounts, WaitingCounts } from '#api/modules/requests/model.ts';
import { WAITING_FILTERS } from '#api/modules/requests/rules.ts';
import { WaitingFilters } from '#src/components/admin/waiting-filters.tsx';
import type { CreditRecord } from '#api/modules/credit/model.ts';
import type { Warehouse } from '#api/modules/warehouses/model.ts';
import { AdminTabs } from '#src/components/admin/admin-tabs.tsx';
import { ADMIN_TABS, CREDIT_HISTORY_TAB, REQUEST_PAGE_SIZES, WAREHOUSE_TAB, adminHref, parseAdminView, type AdminView } from '#src/components/admin/admin-url.ts';
import { CreditHistory } from '#src/components/admin/credit-history.tsx';
import { ErrorAlert, serverError } from '#src/components/admin/error-alert.tsx';
import { pageLocale } from '#src/components/admin/locale.server.ts';
import { PageSizeSelect } from '#src/components/admin/page-size-select.tsx';
import { Pager } from '#src/components/admin/pager.tsx';
import { RefreshButton } from '#src/components/admin/refresh-button.tsx';
import { RequestsTable } from '#src/components/admin/requests-table.tsx';
import { SearchBox } from '#src/components/admin/search-box.tsx';
import { FlaggedFilter } from '#src/components/risk/flagged-filter.tsx';
import { WarehouseManager } from '#src/components/admin/warehouse-manager.tsx';
import { adminNav } from '#src/config/nav.ts';
import { api, type ApiResult } from '#src/lib/api.server.ts';
import { pagePath, requireAdmin } from '#src/lib/session.server.ts';

/** The spec's §8 texts for a tab whose data could not be loaded (the server's own error wins). */
const LOAD_FAILED = {
  requests: 'Failed to load exchange requests',
  credit: 'Failed to load credit history',
  warehouses: 'Failed to load warehouses',
} as const;

/** A page past the end (the list shrank since the link was made) goes to the last page. */
function keepInRange(view: AdminView, shown: number, total: number | null): void {
  if (shown === 0 && view.page > 1 && total) redirect(adminHref({ ...view, page: Math.ceil(total / view.pageSize) }));
}

function paging(view: AdminView, sorted = false): string {
  const params = new URLSearchParams({ page: String(view.page), pageSize: String(view.pageSize) });
  if (view.q) params.set('q', view.q);
  if (view.flagged) params.set('flagged', 'true');
  if (sorted && view.sort && view.order) params.set('sort', view.sort), params.set('order', view.order);
  return params.toString();
}

/** The open tab's list, asked for beside the counts (not after them). */
function loadTab(view: AdminView) {
  if (view.tab === CREDIT_HISTORY_TAB) return api<CreditRecord[]>(`/api/admin/credit-history?${paging(view)}`);
  if (view.tab === WAREHOUSE_TAB) return api<Warehouse[]>('/api/admin/warehouses');
  if (view.waiting) return api<AdminExchangeRequest[]>(`/api/admin/exchange-requests?waiting=${view.waiting}&${paging(view, true)}`);
  return api<AdminExchangeRequest[]>(`/api/admin/exchange-requests?tab=${view.tab}&${paging(view, true)}`);
}

async function RequestsTab({ view, locale, load }: { view: AdminView; locale: string; load: Promise<ApiResult<AdminExchangeRequest[]>> }) {
  const result = await load;
  if (result.data) keepInRange(view, result.data.length, result.total);
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <SearchBox key="requests" view={view} placeholder="Search by product name, brand, or user email" />
        <FlaggedFilter view={view} />
      </div>
      {result.ok && result.data ? (
        <>
          <RequestsTable requests={result.data} view={view} locale={locale} caption={view.waiting ? WAITING_FILTERS[view.waiting] : ADMIN_TABS[view.tab]!.label} />
          {result.data.length > 0 || view.page > 1 ? (
            <Pager view={view} total={result.total ?? result.data.length} noun="requests">
              <PageSizeSelect view={view} sizes={REQUEST_PAGE_SIZES} />
            </Pager>
          ) : null}
        </>
      ) : (
        <ErrorAlert fallback={LOAD_FAILED.requests} error={serverError(result)} />
      )}
    </div>
  );
}

async function CreditTab({ view, locale, load }: { view: AdminView; locale: string; load: Promise<ApiResult<CreditRecord[]>> }) {
  const result = await load;
  if (!result.ok || !result.data) return <ErrorAlert fallback={LOAD_FAILED.credit} error={serverError(result)} />;
  keepInRange(view, result.data.length, result.total);
  return <CreditHistory view={view} records={result.data} total={result.total ?? result.data.length} locale={locale} />;
}

async function WarehousesTab({ load }: { load: Promise<ApiResult<Warehouse[]>> }) {
  const result = await load;
  if (!result.ok || !result.data) return <ErrorAlert fallback={LOAD_FAILED.warehouses} error={serverError(result)} />;
  return <WarehouseManager warehouses={result.data} />;
}

export default async function AdminPage({ path, query }: PageProps<'/admin'>) {
  const view = parseAdminView(query);
  const load = loadTab(view);
  // The badges count the whole queue: a search narrows the list, never the work waiting.
  const [, counts, waiting] = await Promise.all([
    requireAdmin(pagePath(path, query)),
    api<RequestCounts>('/api/admin/exchange-requests/counts'),
    api<WaitingCounts>('/api/admin/exchange-requests/waiting-counts'),
    load,
  ]);
  const locale = pageLocale();
  const tab = view.waiting ? { label: WAITING_FILTERS[view.waiting] } : ADMIN_TABS[view.tab]!;
  return (
    <>
      <title>{`${tab.label} · Admin Dashboard · SwapPoints`}</title>
      <div className="flex flex-col gap-5">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-2xl font-semibold tracking-tight">Admin Dashboard</h1>
          <div className="flex flex-wrap items-center gap-2">
            <nav aria-label="Insights and integrations" className="flex flex-wrap gap-3 text-sm">
              {adminNav.map((item) => (
                <Link key={item.href} to={item.href} className="text-primary underline-offset-4 hover:underline">
                  {item.label}
                </Link>
              ))}
            </nav>
            <RefreshButton />
          </div>
        </div>
        <AdminTabs view={view} counts={counts.ok ? counts.data : null} />
        <WaitingFilters view={view} counts={waiting.ok ? waiting.data : null} />
        {counts.ok ? null : <ErrorAlert fallback={LOAD_FAILED.requests} error={serverError(counts)} />}
        <section aria-labelledby="admin-tab-heading" className="flex flex-col gap-3" data-testid="admin-tab-panel" data-q={view.q}>
          <h2 id="admin-tab-heading" className="text-lg font-semibold">
            {tab.label}
          </h2>
          {view.tab === CREDIT_HISTORY_TAB ? (
            <CreditTab view={view} locale={locale} load={load as Promise<ApiResult<CreditRecord[]>>} />
          ) : view.tab === WAREHOUSE_TAB ? (
            <WarehousesTab load={load as Promise<ApiResult<Warehouse[]>>} />
          ) : (
            <RequestsTab view={view} locale={locale} load={load as Promise<ApiResult<AdminExchangeRequest[]>>} />
          )}
        </section>
      </div>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
