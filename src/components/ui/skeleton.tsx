import type * as React from 'react';

import { cn } from '#src/lib/cn.ts';

/** A pulsing placeholder; size it with className (`h-4 w-32`). Mark the loading region `aria-busy`. */
export function Skeleton({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="skeleton"
      aria-hidden="true"
      className={cn('animate-pulse rounded-md bg-foreground/10', className)}
      {...props}
    />
  );
}
