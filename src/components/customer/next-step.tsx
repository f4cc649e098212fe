import { CheckCircle2, Clock, ExternalLink, Mail, PackageCheck, Search, Truck, XCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'waku';
import type { ExchangeRequestDetail } from '#api/modules/requests/model.ts';
import { Alert, AlertDescription, AlertTitle } from '#src/components/ui/alert.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { formatMoney } from '#api/lib/money.ts';
import { journeyState, type JourneyState } from '#src/lib/journey.ts';
import { statusLine } from '#src/lib/requests.ts';
import { ShippingDialog } from './shipping-dialog.tsx';

export interface NextStepSettings {
  carriers: readonly string[];
  /** today in the shop's time zone (yyyy-mm-dd) */
  today: string;
  shopUrl: string;
  shopName: string;
  supportEmail: string;
  creditWithinDays: number;
}

const variants: Record<JourneyState, 'info' | 'success' | 'destructive'> = {
  pending: 'info',
  declined: 'destructive',
  'awaiting-shipping': 'success',
  'in-transit': 'info',
  received: 'info',
  credited: 'success',
  completed: 'success',
};

const icons: Record<JourneyState, ReactNode> = {
  pending: <Clock aria-hidden="true" />,
  declined: <XCircle aria-hidden="true" />,
  'awaiting-shipping': <CheckCircle2 aria-hidden="true" />,
  'in-transit': <Truck aria-hidden="true" />,
  received: <Search aria-hidden="true" />,
  credited: <PackageCheck aria-hidden="true" />,
  completed: <CheckCircle2 aria-hidden="true" />,
};

/**
 * The banner at the top of a customer's request: the spec's banner or status line for the state it
 * is in, what happens next and who has to act, with the action itself when it is the customer's.
 */
export function NextStepBanner({
  request,
  settings,
  shipActions,
  labelBooked = false,
}: {
  request: ExchangeRequestDetail;
  settings: NextStepSettings;
  /** beside Add Details: the prepaid label and the packing slip */
  shipActions?: ReactNode;
  /** a prepaid label is booked: the courier's pickup gives the shipping details, not the customer */
  labelBooked?: boolean;
}) {
  const state = journeyState(request);
  const credit = formatMoney(request.creditAmount, request.currency);
  const withShop = request.creditPushStatus !== undefined && request.creditPushStatus !== null && request.creditPushStatus !== 'success';
  const shippingDialog = (mode: 'add' | 'correct') => (
    <ShippingDialog requestId={request.id} mode={mode} initial={request.shippingDetails} carriers={settings.carriers} maxDate={settings.today} />
  );

  let title: string;
  let next: ReactNode;
  let actions: ReactNode = null;
  switch (state) {
    case 'pending':
      title = 'Your exchange request is currently under review.';
      next = 'Next: our team reviews it and emails you the decision. Nothing to do meanwhile; you can still cancel it below.';
      break;
    case 'declined':
      title = 'Your exchange request has been declined. Please check the admin feedback.';
      next = (
        <>
          <span className="block" data-testid="decline-reason">
            {request.adminFeedback ? `Reason: ${request.adminFeedback}` : 'No reason was given.'}
          </span>
          <span className="block">You can trade in another item with a new request, or ask us about this one.</span>
        </>
      );
      actions = (
        <>
          <Button asChild size="sm">
            <Link to="/exchange/new">New Exchange</Link>
          </Button>
          <Button asChild size="sm" variant="outline">
            <a href={`mailto:${settings.supportEmail}?subject=${encodeURIComponent(`Declined exchange: ${request.productName}`)}`}>
              <Mail aria-hidden="true" />
              Contact Support
            </a>
          </Button>
        </>
      );
      break;
    case 'awaiting-shipping':
      title = 'Your Exchange Request is Approved! Now add the shipping details.';
      if (labelBooked) {
        next = 'Next: print your prepaid label and packing slip, pack the item and hand it to the courier. It moves to In Transit when the courier picks it up.';
        break;
      }
      next = 'Next: pack the item safely, ship it to the address below, then add the carrier and tracking number.';
      actions = (
        <>
          {shippingDialog('add')}
          {shipActions}
        </>
      );
      break;
    case 'in-transit':
      title = statusLine(request.status, request.transitStatus);
      if (labelBooked) {
        next = 'Next: the courier brings it to the warehouse. Each step shows under Prepaid Label below, and we email you when it arrives.';
        break;
      }
      next = 'Next: we will tell you when it arrives at the warehouse. Made a mistake? You can correct the shipping details until the item is received.';
      actions = shippingDialog('correct');
      break;
    case 'received':
      title = statusLine(request.status, request.transitStatus);
      next =
        request.offer?.status === 'pending'
          ? 'Next: please answer our offer below. Accept it for the credit, or decline it and choose what we do with the item.'
          : `Next: we are inspecting and valuing your item. Credit usually follows within ${settings.creditWithinDays} days of its arrival.`;
      break;
    case 'credited':
      title = `${credit} credit assigned for this item.`;
      next = withShop
        ? `It is on its way to your store credit at ${settings.shopName}: pending with the shop. We will complete the exchange next.`
        : 'It is in your store credit balance. We will complete the exchange next.';
      break;
    case 'completed':
      title = statusLine(request.status, request.transitStatus);
      next = withShop ? `${credit} is being added to your store credit: pending with the shop.` : `${credit} added to your store credit. Use it on your next purchase.`;
      actions = (
        <Button asChild size="sm">
          <a href={settings.shopUrl}>
            Shop now
            <ExternalLink aria-hidden="true" />
          </a>
        </Button>
      );
      break;
  }

  return (
    <Alert variant={variants[state]} data-testid="next-step" data-state={state}>
      {icons[state]}
      <AlertTitle className="font-semibold">{title}</AlertTitle>
      <AlertDescription className="flex flex-col gap-3 text-foreground sm:flex-row sm:items-center sm:justify-between">
        <span data-testid="next-step-text">{next}</span>
        {actions ? <span className="flex shrink-0 flex-wrap gap-2">{actions}</span> : null}
      </AlertDescription>
    </Alert>
  );
}
