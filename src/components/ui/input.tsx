import type * as React from 'react';

import { cn } from '#src/lib/cn.ts';

/** Shared by Input, Textarea and NativeSelect so every field looks and focuses the same way. */
export const fieldClassName = cn(
  'w-full min-w-0 rounded-md border border-input bg-card text-base text-foreground shadow-xs md:text-sm',
  'transition-[color,border-color] outline-hidden placeholder:text-muted-foreground',
  'focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/30',
  'aria-invalid:border-destructive aria-invalid:focus-visible:ring-destructive/25',
  'disabled:cursor-not-allowed disabled:bg-muted disabled:opacity-60',
);

export function Input({ className, type = 'text', ...props }: React.ComponentProps<'input'>) {
  return (
    <input
      type={type}
      data-slot="input"
      className={cn(
        fieldClassName,
        'flex h-9 px-3 py-1',
        'file:mr-3 file:inline-flex file:h-7 file:border-0 file:bg-transparent file:text-sm file:font-medium file:text-foreground',
        className,
      )}
      {...props}
    />
  );
}
