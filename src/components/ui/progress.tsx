'use client';

import type * as React from 'react';
import { Progress as ProgressPrimitive } from 'radix-ui';

import { cn } from '#src/lib/cn.ts';

type ProgressProps = Omit<React.ComponentProps<typeof ProgressPrimitive.Root>, 'value'> & {
  /** 0–`max` (default 100). Leave it out (or pass null) for an indeterminate bar, e.g. while refreshing. */
  value?: number | null;
  indicatorClassName?: string;
};

/**
 * Determinate: `<Progress value={60} aria-label="Upload" />`.
 * Indeterminate refresh bar: `<Progress className="h-1" aria-label="Refreshing" />`.
 * Without an `aria-label`/`aria-labelledby` it is labelled "Loading" (indeterminate) or "Progress".
 */
export function Progress({ className, indicatorClassName, value = null, max = 100, ...props }: ProgressProps) {
  const indeterminate = value === null;
  const percent = indeterminate ? 0 : Math.min(100, Math.max(0, (value / max) * 100));
  const defaultLabel = props['aria-labelledby'] ? undefined : indeterminate ? 'Loading' : 'Progress';
  return (
    <ProgressPrimitive.Root
      data-slot="progress"
      aria-label={defaultLabel}
      value={indeterminate ? null : Math.min(max, Math.max(0, value))}
      max={max}
      className={cn('relative h-2 w-full overflow-hidden rounded-full bg-primary/15', className)}
      {...props}
    >
      <ProgressPrimitive.Indicator
        data-slot="progress-indicator"
        className={cn(
          'h-full rounded-full bg-primary',
          indeterminate
            ? 'w-2/5 motion-safe:animate-progress-indeterminate motion-reduce:w-full motion-reduce:animate-pulse'
            : 'w-full transition-transform duration-300',
          indicatorClassName,
        )}
        style={indeterminate ? undefined : { transform: `translateX(-${100 - percent}%)` }}
      />
    </ProgressPrimitive.Root>
  );
}
