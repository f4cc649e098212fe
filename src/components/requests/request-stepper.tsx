import type { ReactNode } from 'react';
import { Stepper } from '#src/components/ui/stepper.tsx';
import { formatMoney } from '#api/lib/money.ts';
import { journeyState, waitingOn, type JourneyState } from '#src/lib/journey.ts';
import { activeStep, formatDate, reviewStepText, STEP_TITLES } from '#src/lib/requests.ts';
import { normalTransit } from '#api/modules/requests/rules.ts';

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
}: {
  request: StepperRequest;
  locale: string;
  viewer?: 'customer' | 'admin';
  extras?: Partial<Record<number, ReactNode>>;
  className?: string;
}) {
  const shipping = request.shippingDetails;
  const received = normalTransit(request.transitStatus) === 'received';
  const credited = request.creditedAt !== null;
  const completed = request.status === 'completed';
  // Finished steps are ticked and the current one is the step someone is waiting on: the spec's
  // rule, except that an approval finishes the review and assigned credit finishes that step.
  const state = journeyState(request);
  const current = STEP_INDEX[state] ?? activeStep(request);
  const note = waitingOn(state, viewer) ?? undefined;
  // A completed request was approved first: its review step says so.
  const texts: ReactNode[] = [
    reviewStepText(request.status === 'completed' ? 'approved' : request.status),
    shipping ? (
      <span className="flex flex-col">
        <span>Carrier: {shipping.carrierName}</span>
        <span>Tracking: {shipping.trackingNumber}</span>
        <span>Shipped on: {formatDate(shipping.shippingDate, locale)}</span>
      </span>
    ) : (
      'Ship the item to the warehouse and add the shipping details.'
    ),
    credited || completed ? 'Inspected and valued.' : received ? 'Item received and under inspection' : 'We inspect and value the item when it arrives.',
    credited ? `Credit assigned: ${formatMoney(request.creditAmount, request.currency)}` : 'Credit is assigned once the item is valued.',
    completed ? 'Exchange process completed' : 'The credit is usable on your next purchase.',
  ];
  const steps = STEP_TITLES.map((title, index) => ({
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
  return <Stepper steps={steps} activeStep={current} className={className} data-testid="exchange-stepper" />;
}
