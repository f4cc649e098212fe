import type * as React from 'react';
import { Loader2 } from 'lucide-react';

import { cn } from '#src/lib/cn.ts';

const sizes = { sm: 'size-3.5', default: 'size-4', lg: 'size-8' } as const;

type SpinnerProps = Omit<React.ComponentProps<'span'>, 'children'> & {
  /** What is loading, for screen readers. */
  label?: string;
  size?: keyof typeof sizes;
};

export function Spinner({ className, label = 'Loading', size = 'default', ...props }: SpinnerProps) {
  return (
    <span data-slot="spinner" role="status" className={cn('inline-flex items-center', className)} {...props}>
      <Loader2 aria-hidden="true" className={cn('animate-spin', sizes[size])} />
      <span className="sr-only">{label}</span>
    </span>
  );
}
