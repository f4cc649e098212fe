import { MessageSquare } from 'lucide-react';
import type { PageProps } from 'waku/router';
import { Link } from 'waku';
import type { CreditResponse } from '#api/modules/credit/model.ts';
import type { ExchangeRequestDetail } from '#api/modules/requests/model.ts';
import type { RequestShipment } from '#api/modules/shipments/model.ts';
import { CancelRequest } from '#src/components/customer/cancel-request.tsx';
import { LoadFailedAlert } from '#src/components/customer/load-failed-alert.tsx';
import { NewExchangeScreen } from '#src/components/customer/new-exchange-screen.tsx';
import { BackLink } from '#src/components/customer/page-links.tsx';
import { RefreshBar, RefreshButton } from '#src/components/customer/refresh.tsx';
import { NextStepBanner, type NextStepSettings } from '#src/components/customer/next-step.tsx';
import { RequestDetailsTable } from '#src/components/customer/request-details.tsx';
import { CreditAmount } from '#src/components/requests/credit-amount.tsx';
import { EventTimelineCard } from '#src/components/requests/event-timeline.tsx';
import { RequestPhotos } from '#src/components/requests/request-photos.tsx';
import { RequestStepper } from '#src/components/requests/request-stepper.tsx';
import { StatusBadge, TransitChip } from '#src/components/requests/status-badge.tsx';
import { WarehouseAddress } from '#src/components/requests/warehouse-address.tsx';
import { PrepaidLabelDialog } from '#src/components/customer/prepaid-label-dialog.tsx';
import { PackingSlipLink, ParcelCard } from '#src/components/shipments/parcel-card.tsx';
import { ReturnParcelCard } from '#src/components/shipments/return-parcel-card.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { ValuationCard } from '#src/components/valuation/valuation-card.tsx';
import { OfferCard } from '#src/components/offers/offer-card.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#src/components/ui/card.tsx';
import { carriersFor, CREDIT_USUALLY_WITHIN_DAYS, todayIn } from '#api/modules/requests/rules.ts';
import type { Translate } from '#src/i18n/t.ts';
import { pageTexts } from '#src/i18n/language.server.ts';
import { serverText } from '#src/i18n/server-text.ts';
import { api } from '#src/lib/api.server.ts';
import { publicSettings } from '#src/lib/host.server.ts';
import { pagePath, requireUser } from '#src/lib/session.server.ts';

function nextStepSettings(): NextStepSettings {
  const settings = publicSettings();
  return {
    carriers: carriersFor(settings.shopCountry),
    today: todayIn(settings.shopTimeZone),
    shopUrl: new URL(settings.shopRegisterUrl).origin,
    shopName: settings.shopName,
    supportEmail: settings.supportEmail,
    creditWithinDays: CREDIT_USUALLY_WITHIN_DAYS,
  };
}

const BackToList = ({ t }: { t: Translate }) => <BackLink to="/exchange" label={t('request.backToList')} />;

export default async function ExchangeDetailPage({ path, query, id }: PageProps<'/exchange/[id]'>) {
  // Waku matches /exchange/new here when it ranks this route first (see new.tsx).
  if (id === 'new') {
    await requireUser(pagePath(path, query));
    return <NewExchangeScreen />;
  }
  const [, result] = await Promise.all([requireUser(pagePath(path, query)), api<ExchangeRequestDetail>(`/api/exchange/${encodeURIComponent(id)}`)]);
  const { lang, locale, t } = await pageTexts();

  if (!result.ok || !result.data) {
    return (
      <>
        <title>{`${t('request.title')} · SwapPoints`}</title>
        <div className="flex flex-col gap-4">
          <div className="flex items-center gap-2">
            <BackToList t={t} />
            <h1 className="text-2xl font-semibold tracking-tight">{t('request.title')}</h1>
          </div>
          <LoadFailedAlert result={result} fallback={t('request.loadFailed')} lang={lang} />
          <Button asChild variant="outline" className="self-start">
            <Link to="/exchange">{t('request.backToList')}</Link>
          </Button>
        </div>
      </>
    );
  }

  const request = result.data;
  const withShop = request.creditedAt !== null && request.creditPushStatus != null && request.creditPushStatus !== 'success';
  const inProcess = request.status === 'approved' || request.status === 'completed';
  // The total store credit (a call to the shop) is shown only beside the process stepper.
  // a declined offer's item on its way back has a parcel too
  const sentBack = request.offer?.choice === 'return' && request.offer.returnShipment !== null;
  const [credit, parcel] = await Promise.all([
    inProcess ? api<CreditResponse>('/api/shopify/credit') : null,
    inProcess || sentBack ? api<RequestShipment>(`/api/exchange/${encodeURIComponent(request.id)}/shipment`) : null,
  ]);
  const shipment = parcel?.ok ? (parcel.data?.shipment ?? null) : null;
  const returnParcel = parcel?.ok ? (parcel.data?.returnShipment ?? null) : null;
  // awaiting shipping: the customer ships it (Add Details, with the slip to print) or books a prepaid label
  const shipActions = (
    <>
      {parcel?.ok && parcel.data?.labelsOffered ? <PrepaidLabelDialog requestId={request.id} initial={{ name: parcel.data.pickupName ?? undefined }} /> : null}
      <PackingSlipLink requestId={request.id} lang={lang} />
    </>
  );
  return (
    <>
      <title>{`${request.productName} · SwapPoints`}</title>
      <div className="flex flex-col gap-4">
        <div className="flex items-start gap-2">
          <BackToList t={t} />
          <div className="flex min-w-0 flex-1 flex-col gap-1.5">
            <h1 className="text-2xl font-semibold tracking-tight break-words">{request.productName}</h1>
            <div className="flex flex-wrap gap-1.5">
              <StatusBadge status={request.status} lang={lang} />
              <TransitChip request={request} lang={lang} />
            </div>
          </div>
          <RefreshButton iconOnly label={t('request.refresh')} />
        </div>
        <RefreshBar />
        <NextStepBanner request={request} settings={nextStepSettings()} shipActions={shipActions} labelBooked={shipment !== null} lang={lang} />
        <OfferCard request={request} locale={locale} timeZone={publicSettings().shopTimeZone} lang={lang} />
        {returnParcel ? <ReturnParcelCard parcel={returnParcel} locale={locale} lang={lang} /> : null}
        {request.status === 'approved' && request.warehouseInfo && !request.shippingDetails ? (
          <WarehouseAddress warehouse={request.warehouseInfo} description={t('request.shipHere')} lang={lang} />
        ) : null}
        <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <div className="flex min-w-0 flex-col gap-6">
            <Card>
              <CardHeader>
                <CardTitle>{t('request.details')}</CardTitle>
              </CardHeader>
              <CardContent className="flex flex-col gap-6">
                <RequestDetailsTable request={request} locale={locale} lang={lang} />
                <section aria-labelledby="description-title" className="flex flex-col gap-2">
                  <h3 id="description-title" className="font-semibold">{t('request.description')}</h3>
                  <p className="text-sm break-words whitespace-pre-line">{request.description}</p>
                </section>
                <section aria-labelledby="images-title" className="flex flex-col gap-2">
                  <h3 id="images-title" className="font-semibold">{t('request.images')}</h3>
                  <RequestPhotos request={request} locale={locale} lang={lang} />
                </section>
                {request.adminFeedback ? (
                  <section aria-labelledby="feedback-title" className="flex flex-col gap-2 rounded-lg border bg-muted/50 p-4">
                    <h3 id="feedback-title" className="flex items-center gap-2 font-semibold">
                      <MessageSquare className="size-4" aria-hidden="true" />
                      {t('request.feedback')}
                    </h3>
                    <p className="text-sm break-words whitespace-pre-line" data-testid="admin-feedback">{serverText(lang, request.adminFeedback)}</p>
                  </section>
                ) : null}
              </CardContent>
            </Card>
            <ValuationCard request={request} lang={lang} />
            {request.status === 'pending' ? <CancelRequest requestId={request.id} /> : null}
          </div>
          <div className="flex min-w-0 flex-col gap-6">
            {inProcess && request.creditedAt !== null ? (
              <CreditAmount
                amount={request.creditAmount}
                currency={request.currency}
                locale={locale}
                label={t('request.itemCredit')}
                description={t(withShop ? 'request.itemCreditWithShop' : 'request.itemCreditAdded')}
              />
            ) : null}
            {inProcess ? (
              <Card>
                <CardHeader>
                  <CardTitle>{t('request.process')}</CardTitle>
                </CardHeader>
                <CardContent className="flex flex-col gap-6">
                  <RequestStepper request={request} locale={locale} lang={lang} />
                  {credit?.ok && credit.data ? (
                    <CreditAmount
                      amount={credit.data.creditAmount}
                      currency={credit.data.currency}
                      locale={locale}
                      label={t('request.balance')}
                      description={t(withShop ? 'request.balanceWithShop' : 'request.balanceUsable')}
                    />
                  ) : null}
                </CardContent>
              </Card>
            ) : null}
            {shipment ? <ParcelCard shipment={shipment} requestId={request.id} locale={locale} lang={lang} /> : null}
            <EventTimelineCard title={t('request.timeline')} events={request.events} locale={locale} lang={lang} />
          </div>
        </div>
      </div>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
