import type { ReactNode } from 'react';
import { Stepper } from '#src/components/ui/stepper.tsx';
import { formatMoney } from '#api/lib/money.ts';
import { normalTransit } from '#api/modules/requests/rules.ts';
import { LANGUAGE_LOCALES, type Language } from '#api/modules/users/rules.ts';
import { translator } from '#src/i18n/t.ts';
import { journeyState, waitingOn, type JourneyState } from '#src/lib/journey.ts';
import { activeStep, formatDate, reviewStepText, STEP_TITLES, stepTitles } from '#src/lib/requests.ts';

const STEP_INDEX: Partial<Record<JourneyState, number>> = { 'awaiting-shipping': 1, credited: 4, completed: STEP_TITLES.length };

export interface StepperRequest {
  status: string;
  transitStatus: string | null;
  shippingDetails: { carrierName: string; trackingNumber: string; shippingDate: string; notes?: string | null } | null;
  creditAmount: number;
  creditedAt: string | null;
  currency: string;
}

/**
 * The 'Exchange Process' stepper: the spec's five steps, the active one by the spec's rule, and
 * what is known at each (the review outcome, carrier and tracking with the shipped-on date, the
 * credit). `extras` adds content under a step (the admin's actions), by step index.
 */
export function RequestStepper({
  request,
  locale,
  extras = {},
  viewer = 'customer',
  className,
  lang = 'en',
}: {
  request: StepperRequest;
  locale: string;
  viewer?: 'customer' | 'admin';
  extras?: Partial<Record<number, ReactNode>>;
  className?: string;
  /** the customer's language; the admin's stepper is English */
  lang?: Language;
}) {
  const t = translator(lang);
  const shipping = request.shippingDetails;
  const received = normalTransit(request.transitStatus) === 'received';
  const credited = request.creditedAt !== null;
  const completed = request.status === 'completed';
  // Finished steps are ticked and the current one is the step someone is waiting on: the spec's
  // rule, except that an approval finishes the review and assigned credit finishes that step.
  const state = journeyState(request);
  const current = STEP_INDEX[state] ?? activeStep(request);
  const note = waitingOn(state, viewer, lang) ?? undefined;
  // A completed request was approved first: its review step says so.
  const texts: ReactNode[] = [
    reviewStepText(request.status === 'completed' ? 'approved' : request.status, lang),
    shipping ? (
      <span className="flex flex-col">
        <span>{t('step.carrier', { carrier: shipping.carrierName })}</span>
        <span>{t('step.tracking', { number: shipping.trackingNumber })}</span>
        <span>{t('step.shippedOn', { date: formatDate(shipping.shippingDate, locale) })}</span>
      </span>
    ) : (
      t('step.shipIt')
    ),
    t(credited || completed ? 'step.inspected' : received ? 'line.received' : 'step.willInspect'),
    credited ? t('step.credited', { amount: formatMoney(request.creditAmount, request.currency, LANGUAGE_LOCALES[lang]) }) : t('step.willCredit'),
    t(completed ? 'line.completed' : 'step.usable'),
  ];
  const steps = stepTitles(lang).map((title, index) => ({
    title,
    note: index === current ? note : undefined,
    description:
      extras[index] === undefined ? (
        texts[index]
      ) : (
        <div className="flex flex-col gap-2">
          <div>{texts[index]}</div>
          {extras[index]}
        </div>
      ),
  }));
  const stateLabels = { completed: t('stepper.completed'), active: t('stepper.active'), upcoming: t('stepper.upcoming') };
  return <Stepper steps={steps} activeStep={current} stateLabels={stateLabels} className={className} data-testid="exchange-stepper" />;
}
