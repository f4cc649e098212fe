import type { PageProps } from 'waku/router';
import type { CreditResponse } from '#api/modules/credit/model.ts';
import type { ExchangeRequest } from '#api/modules/requests/model.ts';
import { CreditCard } from '#src/components/credit/credit-card.tsx';
import { ErrorScreen } from '#src/components/customer/error-screen.tsx';
import { LoadFailedAlert } from '#src/components/customer/load-failed-alert.tsx';
import { NewExchangeLink } from '#src/components/customer/page-links.tsx';
import { RecentExchanges } from '#src/components/customer/recent-exchanges.tsx';
import { RefreshBar, RefreshButton, WhileRefreshing } from '#src/components/customer/refresh.tsx';
import { WhatsAppSettings } from '#src/components/customer/whatsapp-settings.tsx';
import { YourData } from '#src/components/customer/your-data.tsx';
import { Skeleton } from '#src/components/ui/skeleton.tsx';
import { api } from '#src/lib/api.server.ts';
import { pageTexts } from '#src/i18n/language.server.ts';
import { publicSettings } from '#src/lib/host.server.ts';
import { pagePath, requireUser } from '#src/lib/session.server.ts';

export default async function DashboardPage({ path, query }: PageProps<'/dashboard'>) {
  // The session check and both reads run together (the API checks the session again on its own).
  const [user, credit, requests] = await Promise.all([
    requireUser(pagePath(path, query)),
    api<CreditResponse>('/api/shopify/credit'),
    api<ExchangeRequest[]>('/api/exchange'),
  ]);
  const { lang, locale, t } = await pageTexts();
  return (
    <>
      <title>{`${t('dashboard.title')} · SwapPoints`}</title>
      <div className="flex flex-col gap-4">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h1 className="text-2xl font-semibold tracking-tight">{t('dashboard.title')}</h1>
            <p className="text-sm text-muted-foreground">{t('dashboard.signedInAs', { email: user.email })}</p>
          </div>
          <div className="flex gap-2">
            <RefreshButton label={t('dashboard.refresh')} />
            <NewExchangeLink label={t('nav.newExchange')} />
          </div>
        </div>
        <RefreshBar />
        {requests.ok ? null : <LoadFailedAlert result={requests} fallback={t('dashboard.loadFailed')} lang={lang} />}
        <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,24rem)_minmax(0,1fr)]">
          <WhileRefreshing skeleton={<Skeleton className="aspect-[1.7/1] w-full max-w-sm rounded-2xl" />}>
            {credit.ok && credit.data ? (
              <CreditCard amount={credit.data.creditAmount} currency={credit.data.currency} email={user.email} lang={lang} />
            ) : (
              <ErrorScreen failure={{ status: credit.status, error: credit.error }} supportEmail={publicSettings().supportEmail} lang={lang} />
            )}
          </WhileRefreshing>
          {/* a failed list shows only the alert above: no '0 Requests', no empty state (§2) */}
          {requests.ok ? <RecentExchanges requests={requests.data ?? []} locale={locale} lang={lang} /> : null}
        </div>
        <WhatsAppSettings profile={{ phone: user.phone, whatsapp: user.whatsapp, language: user.language }} />
        <YourData lang={lang} />
      </div>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
