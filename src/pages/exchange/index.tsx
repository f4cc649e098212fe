import { Inbox } from 'lucide-react';
import { Link } from 'waku';
import type { PageProps } from 'waku/router';
import type { CancelledRequest, ExchangeRequest } from '#api/modules/requests/model.ts';
import { CancelledCard } from '#src/components/customer/cancelled-card.tsx';
import { ExchangeCard } from '#src/components/customer/exchange-card.tsx';
import { ListFilters } from '#src/components/customer/list-filters.tsx';
import { LoadFailedAlert } from '#src/components/customer/load-failed-alert.tsx';
import { BackLink, NewExchangeLink } from '#src/components/customer/page-links.tsx';
import { Pagination } from '#src/components/customer/pagination.tsx';
import { RefreshBar, RefreshButton, WhileRefreshing } from '#src/components/customer/refresh.tsx';
import { Skeleton } from '#src/components/ui/skeleton.tsx';
import { api } from '#src/lib/api.server.ts';
import { pageTexts } from '#src/i18n/language.server.ts';
import { CANCELLED_VIEW, listHref, listView, LIST_PAGE_SIZE, showingRange } from '#src/lib/requests.ts';
import { pagePath, requireUser } from '#src/lib/session.server.ts';

async function fetchPage(view: ReturnType<typeof listView>) {
  const params = new URLSearchParams({ page: String(view.page), pageSize: String(LIST_PAGE_SIZE) });
  if (view.q.trim()) params.set('q', view.q.trim());
  // 'Cancelled' is not a status: those requests were deleted, and what was kept of them has its own list
  if (view.status === CANCELLED_VIEW) return api<CancelledRequest[]>(`/api/exchange/cancelled?${params}`);
  if (view.status) params.set('status', view.status);
  return api<ExchangeRequest[]>(`/api/exchange?${params}`);
}

export default async function MyExchangesPage({ path, query }: PageProps<'/exchange'>) {
  const view = listView(query ?? '');
  let [, result] = await Promise.all([requireUser(pagePath(path, query)), fetchPage(view)]);
  // A page past the end (an old link) shows the last page instead.
  const lastPage = Math.max(1, Math.ceil((result.total ?? 0) / LIST_PAGE_SIZE));
  if (result.ok && view.page > lastPage) {
    view.page = lastPage;
    result = await fetchPage(view);
  }
  const requests = result.data ?? [];
  const total = result.total ?? requests.length;
  const { lang, locale, t } = await pageTexts();
  const filtered = view.q.trim() !== '' || view.status !== '';
  const emptyText =
    view.status === CANCELLED_VIEW
      ? t('list.emptyCancelled')
      : filtered
        ? t('list.emptyFiltered')
        : t('list.emptyFirst');

  return (
    <>
      <title>{`${t('list.title')} · SwapPoints`}</title>
      <div className="flex flex-col gap-4">
        <div className="flex items-center gap-2">
          <BackLink to="/dashboard" label={t('list.back')} />
          <h1 className="flex-1 text-2xl font-semibold tracking-tight">{t('list.title')}</h1>
          <RefreshButton iconOnly label={t('list.refresh')} />
        </div>
        <RefreshBar />
        <ListFilters q={view.q} status={view.status} />
        <p className="text-sm">
          {view.status === CANCELLED_VIEW ? (
            <>
              <span className="font-medium">{t('list.cancelled')}</span>
              <span className="text-muted-foreground"> · </span>
              <Link to="/exchange" className="text-primary underline underline-offset-4">
                {t('list.showCurrent')}
              </Link>
            </>
          ) : (
            <Link to={listHref({ status: CANCELLED_VIEW })} className="text-primary underline underline-offset-4">
              {t('list.showCancelled')}
            </Link>
          )}
        </p>
        {result.ok ? null : <LoadFailedAlert result={result} fallback={t('list.loadFailed')} lang={lang} />}
        <WhileRefreshing skeleton={<ListSkeleton />}>
          {result.ok && requests.length === 0 ? (
            <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed bg-card px-4 py-12 text-center">
              <Inbox className="size-10 text-muted-foreground" aria-hidden="true" />
              <h2 className="text-lg font-semibold">{t(view.status === CANCELLED_VIEW ? 'list.noCancelled' : 'list.noneFound')}</h2>
              <p className="text-sm text-muted-foreground">{emptyText}</p>
              <NewExchangeLink label={t('nav.newExchange')} />
            </div>
          ) : null}
          {requests.length > 0 ? (
            <>
              <p className="text-sm text-muted-foreground" role="status" data-testid="showing-range">
                {showingRange(view.page, LIST_PAGE_SIZE, total, lang)}
              </p>
              <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label={t(view.status === CANCELLED_VIEW ? 'list.cancelled' : 'dashboard.listLabel')}>
                {requests.map((request) => (
                  <li key={request.id} className="flex min-w-0">
                    {'cancelledAt' in request ? <CancelledCard request={request} locale={locale} lang={lang} /> : <ExchangeCard request={request} locale={locale} lang={lang} />}
                  </li>
                ))}
              </ul>
              <Pagination page={view.page} pages={lastPage} href={(page) => listHref({ ...view, page })} t={t} />
            </>
          ) : null}
        </WhileRefreshing>
      </div>
    </>
  );
}

function ListSkeleton() {
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} className="h-52 w-full rounded-xl" />
      ))}
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
