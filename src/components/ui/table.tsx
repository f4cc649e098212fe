import type * as React from 'react';

import { cn } from '#src/lib/cn.ts';

type TableProps = React.ComponentProps<'table'> & {
  /** Classes for the scrolling wrapper, e.g. `max-h-[600px]` for a table that scrolls inside a card. */
  containerClassName?: string;
};

/**
 * A table inside an `overflow-auto` wrapper. The wrapper is focusable so keyboard users can scroll
 * it when it overflows (narrow screens, a max height); a shadow at its right edge shows that it does,
 * and on a phone the first column stays fixed.
 */
export function Table({ className, containerClassName, ...props }: TableProps) {
  return (
    <div
      data-slot="table-container"
      tabIndex={0}
      className={cn(
        'table-scroll relative w-full overflow-auto rounded-md outline-hidden focus-visible:ring-2 focus-visible:ring-ring',
        // on a phone the first (key) column stays in place while the others scroll under it
        'max-sm:[&_tr>*:first-child]:sticky max-sm:[&_tr>*:first-child]:left-0 max-sm:[&_tr>*:first-child]:z-[1] max-sm:[&_tr>*:first-child]:bg-card',
        containerClassName,
      )}
    >
      <table data-slot="table" className={cn('w-full caption-bottom text-sm', className)} {...props} />
    </div>
  );
}

type TableHeaderProps = React.ComponentProps<'thead'> & {
  /** Keep the header row visible while the container scrolls vertically. */
  sticky?: boolean;
};

export function TableHeader({ className, sticky = false, ...props }: TableHeaderProps) {
  return (
    <thead
      data-slot="table-header"
      className={cn(
        '[&_tr]:border-b',
        sticky && 'sticky top-0 z-10 bg-card shadow-[inset_0_-1px_0_var(--color-border)]',
        className,
      )}
      {...props}
    />
  );
}

export function TableBody({ className, ...props }: React.ComponentProps<'tbody'>) {
  return <tbody data-slot="table-body" className={cn('[&_tr:last-child]:border-0', className)} {...props} />;
}

export function TableFooter({ className, ...props }: React.ComponentProps<'tfoot'>) {
  return (
    <tfoot
      data-slot="table-footer"
      className={cn('border-t bg-muted/50 font-medium [&>tr]:last:border-b-0', className)}
      {...props}
    />
  );
}

export function TableRow({ className, ...props }: React.ComponentProps<'tr'>) {
  return (
    <tr
      data-slot="table-row"
      className={cn('border-b transition-colors hover:bg-muted/60 data-[state=selected]:bg-muted', className)}
      {...props}
    />
  );
}

export function TableHead({ className, scope = 'col', ...props }: React.ComponentProps<'th'>) {
  return (
    <th
      data-slot="table-head"
      scope={scope}
      className={cn(
        'h-10 px-3 text-left align-middle text-xs font-semibold tracking-wide whitespace-nowrap text-muted-foreground uppercase',
        className,
      )}
      {...props}
    />
  );
}

export function TableCell({ className, ...props }: React.ComponentProps<'td'>) {
  return (
    <td data-slot="table-cell" className={cn('px-3 py-2.5 align-middle whitespace-nowrap', className)} {...props} />
  );
}

export function TableCaption({ className, ...props }: React.ComponentProps<'caption'>) {
  return (
    <caption data-slot="table-caption" className={cn('mt-4 text-sm text-muted-foreground', className)} {...props} />
  );
}
