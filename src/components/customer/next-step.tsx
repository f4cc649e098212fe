import { CheckCircle2, Clock, ExternalLink, Mail, PackageCheck, Search, Truck, XCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'waku';
import type { ExchangeRequestDetail } from '#api/modules/requests/model.ts';
import { Alert, AlertDescription, AlertTitle } from '#src/components/ui/alert.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { formatMoney } from '#api/lib/money.ts';
import { LANGUAGE_LOCALES, type Language } from '#api/modules/users/rules.ts';
import { serverText } from '#src/i18n/server-text.ts';
import { translator } from '#src/i18n/t.ts';
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
  lang = 'en',
}: {
  request: ExchangeRequestDetail;
  settings: NextStepSettings;
  /** beside Add Details: the prepaid label and the packing slip */
  shipActions?: ReactNode;
  /** a prepaid label is booked: the courier's pickup gives the shipping details, not the customer */
  labelBooked?: boolean;
  lang?: Language;
}) {
  const t = translator(lang);
  const state = journeyState(request);
  const credit = formatMoney(request.creditAmount, request.currency, LANGUAGE_LOCALES[lang]);
  const withShop = request.creditPushStatus !== undefined && request.creditPushStatus !== null && request.creditPushStatus !== 'success';
  const shippingDialog = (mode: 'add' | 'correct') => (
    <ShippingDialog requestId={request.id} mode={mode} initial={request.shippingDetails} carriers={settings.carriers} maxDate={settings.today} lang={lang} />
  );

  let title: string;
  let next: ReactNode;
  let actions: ReactNode = null;
  switch (state) {
    case 'pending':
      title = t('next.pending.title');
      next = t('next.pending');
      break;
    case 'declined':
      title = t('next.declined.title');
      next = (
        <>
          <span className="block" data-testid="decline-reason">
            {request.adminFeedback ? t('next.declined.reason', { reason: serverText(lang, request.adminFeedback) }) : t('next.declined.noReason')}
          </span>
          <span className="block">{t('next.declined')}</span>
        </>
      );
      actions = (
        <>
          <Button asChild size="sm">
            <Link to="/exchange/new">{t('nav.newExchange')}</Link>
          </Button>
          <Button asChild size="sm" variant="outline">
            <a href={`mailto:${settings.supportEmail}?subject=${encodeURIComponent(t('next.declined.subject', { product: request.productName }))}`}>
              <Mail aria-hidden="true" />
              {t('error.contact-support')}
            </a>
          </Button>
        </>
      );
      break;
    case 'awaiting-shipping':
      title = t('next.approved.title');
      if (labelBooked) {
        next = t('next.approved.label');
        break;
      }
      next = t('next.approved');
      actions = (
        <>
          {shippingDialog('add')}
          {shipActions}
        </>
      );
      break;
    case 'in-transit':
      title = statusLine(request.status, request.transitStatus, lang);
      if (labelBooked) {
        next = t('next.transit.label');
        break;
      }
      next = t('next.transit');
      actions = shippingDialog('correct');
      break;
    case 'received':
      title = statusLine(request.status, request.transitStatus, lang);
      next = request.offer?.status === 'pending' ? t('next.received.offer') : t('next.received', { days: settings.creditWithinDays });
      break;
    case 'credited':
      title = t('next.credited.title', { amount: credit });
      next = withShop ? t('next.credited.withShop', { shop: settings.shopName }) : t('next.credited');
      break;
    case 'completed':
      title = statusLine(request.status, request.transitStatus, lang);
      next = t(withShop ? 'next.completed.withShop' : 'next.completed', { amount: credit });
      actions = (
        <Button asChild size="sm">
          <a href={settings.shopUrl}>
            {t('next.shopNow')}
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
