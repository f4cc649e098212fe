import type * as React from 'react';

import { cn } from '#src/lib/cn.ts';

export type StepperStep = {
  title: string;
  description?: React.ReactNode;
  /** a short tag after the title (who the step waits for) */
  note?: string;
};

type StepState = 'completed' | 'active' | 'upcoming';

type StepperProps = Omit<React.ComponentProps<'ol'>, 'children'> & {
  steps: readonly StepperStep[];
  /**
   * Index of the current step: earlier steps show as completed, later ones as upcoming.
   * Pass `steps.length` to show every step completed.
   */
  activeStep: number;
  /** what a screen reader hears before each title, in the page's language */
  stateLabels?: Record<StepState, string>;
};

export type { StepState };

const srState: Record<StepState, string> = {
  completed: 'Completed: ',
  active: 'Current step: ',
  upcoming: 'Upcoming: ',
};

/** A vertical list of steps; renders on the server with no client JS. */
export function Stepper({ className, steps, activeStep, stateLabels = srState, ...props }: StepperProps) {
  return (
    <ol data-slot="stepper" className={cn('flex flex-col', className)} {...props}>
      {steps.map((step, index) => {
        const state: StepState = index < activeStep ? 'completed' : index === activeStep ? 'active' : 'upcoming';
        const isLast = index === steps.length - 1;
        return (
          <li
            key={`${index}-${step.title}`}
            data-slot="stepper-step"
            data-state={state}
            aria-current={state === 'active' ? 'step' : undefined}
            className="relative flex gap-3 pb-6 last:pb-0"
          >
            {!isLast && (
              <span
                aria-hidden="true"
                className={cn(
                  'absolute top-9 bottom-1 left-[15px] w-0.5 rounded-full',
                  state === 'completed' ? 'bg-primary' : 'bg-border',
                )}
              />
            )}
            <span
              aria-hidden="true"
              data-slot="stepper-indicator"
              className={cn(
                'relative flex size-8 shrink-0 items-center justify-center rounded-full border-2 text-sm font-semibold',
                state === 'completed' && 'border-primary bg-primary text-primary-foreground',
                state === 'active' && 'border-primary bg-card text-primary ring-4 ring-primary/15',
                state === 'upcoming' && 'border-input bg-card text-muted-foreground',
              )}
            >
              {state === 'completed' ? (
                <svg
                  viewBox="0 0 24 24"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="3"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                  className="size-4"
                >
                  <path d="M20 6 9 17l-5-5" />
                </svg>
              ) : (
                index + 1
              )}
            </span>
            <div className="min-w-0 flex-1 pt-1">
              <p
                data-slot="stepper-title"
                className={cn(
                  'text-sm leading-6 font-medium',
                  state === 'upcoming' ? 'text-muted-foreground' : 'text-foreground',
                )}
              >
                <span className="sr-only">{stateLabels[state]}</span>
                {step.title}
                {step.note ? (
                  <span className="ml-2 inline-flex rounded-full bg-warning/15 px-2 py-0.5 text-xs font-medium text-foreground" data-slot="stepper-note">
                    {step.note}
                  </span>
                ) : null}
              </p>
              {step.description != null && (
                <div data-slot="stepper-description" className="mt-0.5 text-sm break-words text-muted-foreground">
                  {step.description}
                </div>
              )}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
