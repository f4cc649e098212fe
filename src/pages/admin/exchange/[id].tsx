import { ArrowLeft, CircleCheck, Clock, Info } from 'lucide-react';
import { Link } from 'waku';
import type { PageProps } from 'waku/router';
import type { AdminExchangeRequestDetail } from '#api/modules/requests/model.ts';
import type { Warehouse } from '#api/modules/warehouses/model.ts';
import { adminHref } from '#src/components/admin/admin-url.ts';
import { DecisionForm } from '#src/components/admin/decision-form.tsx';
import { DeleteRequestButton } from '#src/components/admin/delete-request.tsx';
import { ErrorAlert, serverError } from '#src/components/admin/error-alert.tsx';
import { pageLocale } from '#src/components/admin/locale.server.ts';
import { AssignCreditAction, CompleteAction, MarkReceivedAction } from '#src/components/admin/request-actions.tsx';
import { RequestDetails } from '#src/components/admin/request-details.tsx';
import { RiskFlags } from '#src/components/risk/risk-flags.tsx';
import { EventTimelineCard } from '#src/components/requests/event-timeline.tsx';
import { RequestPhotos } from '#src/components/requests/request-photos.tsx';
import { ParcelCard } from '#src/components/shipments/parcel-card.tsx';
import { ReturnParcelCard } from '#src/components/shipments/return-parcel-card.tsx';
import type { RequestShipment } from '#api/modules/shipments/model.ts';
import { RequestStepper } from '#src/components/requests/request-stepper.tsx';
import { WarehouseAddress } from '#src/components/requests/warehouse-address.tsx';
import { Alert, AlertDescription, AlertTitle } from '#src/components/ui/alert.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { ValuationCard } from '#src/components/valuation/valuation-card.tsx';
import { AdminOfferCard } from '#src/components/offers/admin-offer.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#src/components/ui/card.tsx';
import { api } from '#src/lib/api.server.ts';
import { currencySymbol, formatMoney } from '#api/lib/money.ts';
import { allows, carriersFor, stateOf, tabOf, todayIn } from '#api/modules/requests/rules.ts';
import { ShippingDialog } from '#src/components/customer/shipping-dialog.tsx';
import { publicSettings } from '#src/lib/host.server.ts';
import { pagePath, requireAdmin } from '#src/lib/session.server.ts';

const LOAD_FAILED = 'Failed to load exchange details';

/** Active warehouses for the approval select; a failed load is only logged (spec §8). */
async function activeWarehouses(): Promise<Warehouse[]> {
  const result = await api<Warehouse[]>('/api/admin/warehouses');
  if (!result.ok || !result.data) {
    console.error(`GET /api/admin/warehouses failed (${result.status})`, result.error);
    return [];
  }
  return result.data.filter((w) => w.isActive !== false);
}

function BackButton({ to }: { to: ReturnType<typeof adminHref> }) {
  return (
    <Button asChild variant="outline">
      <Link to={to}>
        <ArrowLeft aria-hidden="true" />
        Back
      </Link>
    </Button>
  );
}

/**
 * What the admin can do next, under the stepper's steps: each button is enabled exactly when the
 * API would accept it, and leaves once its work is done.
 */
function stepActions(request: AdminExchangeRequestDetail) {
  const state = stateOf(request);
  if (state.status !== 'approved') return {};
  const { received, credited } = state;
  const settings = publicSettings();
  // a parcel that came without tracking details: the admin records them for the customer (issue 27)
  const enterShipping = !received && (request.transitStatus === null || request.transitStatus === 'shipped') ? (
    <ShippingDialog requestId={request.id} mode="admin" initial={request.shippingDetails} carriers={carriersFor(settings.shopCountry)} maxDate={todayIn(settings.shopTimeZone)} />
  ) : null;
  return {
    ...(received
      ? {}
      : {
          2: (
            <div className="flex flex-wrap items-start gap-2">
              <MarkReceivedAction requestId={request.id} enabled={allows('receive', state)} />
              {enterShipping}
            </div>
          ),
        }),
    ...(credited
      ? {}
      : {
          3: (
            <AssignCreditAction
              requestId={request.id}
              enabled={allows('credit', state) && !request.offer}
              waitingWhy={request.offer?.status === 'pending' ? "An offer is waiting for the customer's answer." : undefined}
              currency={request.currency}
              currencySymbol={currencySymbol(request.currency)}
              customer={request.customerName && request.customerName !== 'Unknown' ? `${request.customerName} (${request.customerEmail})` : request.customerEmail}
              valuation={{ guide: request.creditGuide, quote: request.quote, condition: request.condition, currency: request.currency }}
            />
          ),
        }),
    4: <CompleteAction requestId={request.id} enabled={allows('complete', state)} needsCredit={!credited} />,
  };
}

export default async function AdminExchangePage({ path, query, id }: PageProps<'/admin/exchange/[id]'>) {
  const [, result] = await Promise.all([
    requireAdmin(pagePath(path, query)),
    api<AdminExchangeRequestDetail>(`/api/admin/exchange-requests/${encodeURIComponent(id)}`),
  ]);
  if (!result.ok || !result.data) {
    return (
      <>
        <title>Exchange Request · Admin Dashboard · SwapPoints</title>
        <div className="flex flex-col gap-4">
          <div>
            <BackButton to="/admin" />
          </div>
          <h1 className="text-2xl font-semibold tracking-tight">Exchange Request</h1>
          <ErrorAlert fallback={LOAD_FAILED} error={serverError(result)} />
        </div>
      </>
    );
  }
  const request = result.data;
  const locale = pageLocale();
  const pending = request.status === 'pending';
  const awaitingShipping = request.status === 'approved' && !request.shippingDetails;
  const sendingBack = request.offer?.choice === 'return';
  const [warehouses, parcel] = await Promise.all([
    pending ? activeWarehouses() : [],
    request.status === 'approved' || request.status === 'completed' || sendingBack ? api<RequestShipment>(`/api/exchange/${encodeURIComponent(request.id)}/shipment`) : null,
  ]);
  const shipment = parcel?.ok ? (parcel.data?.shipment ?? null) : null;
  const returnParcel = parcel?.ok ? (parcel.data?.returnShipment ?? null) : null;
  const backTo = adminHref({ tab: tabOf(stateOf(request)) });

  return (
    <>
      <title>{`${request.productName} · Admin Dashboard · SwapPoints`}</title>
      <div className="flex flex-col gap-5">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <BackButton to={backTo} />
          <DeleteRequestButton requestId={request.id} productName={request.productName} backTo={backTo} />
        </div>
        <div>
          <h1 className="text-2xl font-semibold tracking-tight break-words">{request.productName}</h1>
          <p className="text-sm text-muted-foreground">
            {request.brand} · from {request.customerEmail}
          </p>
        </div>
        <RiskFlags flags={request.riskFlags} />

        {pending ? (
          <Alert variant="info">
            <Clock aria-hidden="true" />
            <AlertDescription>This exchange request is waiting for your review.</AlertDescription>
          </Alert>
        ) : null}
        {awaitingShipping ? (
          <Alert variant="info">
            <Info aria-hidden="true" />
            <AlertDescription>This request has been approved. Waiting for customer to submit shipping details.</AlertDescription>
          </Alert>
        ) : null}
        {request.status === 'completed' ? (
          <Alert variant="success">
            <CircleCheck aria-hidden="true" />
            <AlertTitle>Exchange Completed Successfully</AlertTitle>
            <AlertDescription>
              <p>
                <span className="font-semibold tabular-nums" data-testid="completed-amount">
                  {formatMoney(request.creditAmount, request.currency)}
                </span>{' '}
                store credit was given to the customer.
              </p>
            </AlertDescription>
          </Alert>
        ) : null}

        {request.status === 'declined' ? (
          <Alert variant="destructive">
            <Info aria-hidden="true" />
            <AlertTitle>Declined</AlertTitle>
            <AlertDescription>{request.adminFeedback ? `Feedback sent to the customer: ${request.adminFeedback}` : 'No reason was given.'}</AlertDescription>
          </Alert>
        ) : null}

        <div className="grid gap-5 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <div className="flex min-w-0 flex-col gap-5">
            <Card>
              <CardHeader>
                <CardTitle>Request Details</CardTitle>
              </CardHeader>
              <CardContent>
                <RequestDetails request={request} locale={locale} />
              </CardContent>
            </Card>
            <ValuationCard request={request} />
            <Card>
              <CardHeader>
                <CardTitle>Images</CardTitle>
              </CardHeader>
              <CardContent>
                <RequestPhotos request={request} locale={locale} />
              </CardContent>
            </Card>
            <Card>
              <CardHeader>
                <CardTitle>Description</CardTitle>
              </CardHeader>
              <CardContent className="flex flex-col gap-4">
                <p className="text-sm break-words whitespace-pre-line">{request.description}</p>
                <div>
                  <h3 className="mb-1 text-sm font-semibold">Admin Feedback</h3>
                  <p className="text-sm break-words whitespace-pre-line text-muted-foreground" data-testid="admin-feedback">
                    {request.adminFeedback || 'No feedback yet.'}
                  </p>
                </div>
              </CardContent>
            </Card>
          </div>

          {/* on a phone: a pending request's photos and details come before Approve/Decline (inspect, then
              decide); for a later step, the next action comes first */}
          <div className={pending ? 'flex min-w-0 flex-col gap-5' : 'order-first flex min-w-0 flex-col gap-5 lg:order-none'}>
            {pending ? (
              <Card>
                <CardHeader>
                  <CardTitle>Review Request</CardTitle>
                </CardHeader>
                <CardContent>
                  <DecisionForm
                    requestId={request.id}
                    status={request.status}
                    feedback={request.adminFeedback}
                    warehouses={warehouses.map((w) => ({ id: w.id, name: w.name, city: w.city, state: w.state }))}
                  />
                </CardContent>
              </Card>
            ) : request.status === 'declined' ? null : (
              <Card>
                <CardHeader>
                  <CardTitle>Exchange Process</CardTitle>
                </CardHeader>
                <CardContent>
                  <RequestStepper request={request} locale={locale} extras={stepActions(request)} viewer="admin" />
                </CardContent>
              </Card>
            )}
            <AdminOfferCard request={request} locale={locale} carrier={parcel?.ok === true && parcel.data?.labelsOffered === true} />
            {returnParcel ? <ReturnParcelCard parcel={returnParcel} locale={locale} labelHref={`/api/admin/exchange-requests/${encodeURIComponent(request.id)}/return/label`} /> : null}
            {awaitingShipping && request.warehouseInfo ? (
              <WarehouseAddress warehouse={request.warehouseInfo} title="Customer Ships To This Address" />
            ) : null}
            {shipment ? <ParcelCard shipment={shipment} requestId={request.id} locale={locale} /> : null}
            <EventTimelineCard title="Activity" events={request.events} locale={locale} />
          </div>
        </div>
      </div>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
