import { ArrowRight, PackagePlus } from 'lucide-react';
import { Link } from 'waku';
import type { ExchangeRequest } from '#api/modules/requests/model.ts';
import { CreditAmountInline } from '#src/components/requests/credit-amount.tsx';
import { RequestThumbnail } from '#src/components/requests/request-thumbnail.tsx';
import { StatusBadge } from '#src/components/requests/status-badge.tsx';
import { TransitProgress } from '#src/components/requests/transit-progress.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Card, CardAction, CardContent, CardHeader, CardTitle } from '#src/components/ui/card.tsx';
import { Skeleton } from '#src/components/ui/skeleton.tsx';
import type { Language } from '#api/modules/users/rules.ts';
import { translator } from '#src/i18n/t.ts';
import { formatDate } from '#src/lib/requests.ts';
import { WhileRefreshing } from './refresh.tsx';
import { RecentExchangesSearch, RequestCountChip } from './recent-exchanges-search.tsx';

/** The dashboard's 'Recent Exchanges' card: count chip, search, items, the empty state, 'View All Requests'. */
export function RecentExchanges({ requests, locale, lang = 'en' }: { requests: ExchangeRequest[]; locale: string; lang?: Language }) {
  const t = translator(lang);
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>{t('dashboard.recent')}</CardTitle>
        <CardAction>
          <RequestCountChip total={requests.length} />
        </CardAction>
      </CardHeader>
      <CardContent>
        <WhileRefreshing skeleton={<RecentExchangesSkeleton />}>
          {requests.length === 0 ? (
            <div className="flex flex-col items-center gap-4 py-8 text-center">
              <PackagePlus className="size-10 text-muted-foreground" aria-hidden="true" />
              <p className="text-muted-foreground">{t('dashboard.empty')}</p>
              <Button asChild>
                <Link to="/exchange/new">{t('dashboard.createFirst')}</Link>
              </Button>
            </div>
          ) : (
            <RecentExchangesSearch
              items={requests.map((request) => ({
                id: request.id,
                productName: request.productName,
                brand: request.brand,
                status: request.status,
                node: <RecentExchangeItem request={request} locale={locale} lang={lang} />,
              }))}
              viewAll={
                <Button asChild variant="outline" className="self-center">
                  <Link to="/exchange">
                    {t('dashboard.viewAll')}
                    <ArrowRight aria-hidden="true" />
                  </Link>
                </Button>
              }
            />
          )}
        </WhileRefreshing>
      </CardContent>
    </Card>
  );
}

function RecentExchangeItem({ request, locale, lang }: { request: ExchangeRequest; locale: string; lang: Language }) {
  const t = translator(lang);
  const showCredit = (request.status === 'approved' || request.status === 'completed') && request.creditedAt !== null;
  return (
    <article className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center" data-testid="recent-exchange">
      <div className="flex min-w-0 flex-1 gap-3">
        <RequestThumbnail images={request.images} productName={request.productName} lang={lang} />
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="truncate font-semibold">{request.productName}</h3>
            <StatusBadge status={request.status} lang={lang} />
          </div>
          <p className="text-sm text-muted-foreground">
            {request.brand} · <time dateTime={request.createdAt}>{formatDate(request.createdAt, locale)}</time>
          </p>
          <TransitProgress request={request} lang={lang} />
          {showCredit ? <CreditAmountInline amount={request.creditAmount} currency={request.currency} lang={lang} /> : null}
        </div>
      </div>
      <Button asChild variant="outline" size="sm" className="self-start sm:self-center">
        <Link to={`/exchange/${request.id}`} aria-label={t('dashboard.viewDetailsOf', { product: request.productName })}>
          {t('dashboard.viewDetails')}
        </Link>
      </Button>
    </article>
  );
}

export function RecentExchangesSkeleton() {
  return (
    <div className="flex flex-col gap-4">
      <Skeleton className="h-9 w-full" />
      {[0, 1, 2].map((i) => (
        <div key={i} className="flex gap-3">
          <Skeleton className="size-16" />
          <div className="flex flex-1 flex-col gap-2">
            <Skeleton className="h-4 w-1/2" />
            <Skeleton className="h-3 w-1/3" />
            <Skeleton className="h-2 w-40" />
          </div>
        </div>
      ))}
    </div>
  );
}
