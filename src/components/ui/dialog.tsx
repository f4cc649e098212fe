'use client';

import type * as React from 'react';
import { XIcon } from 'lucide-react';
import { Dialog as DialogPrimitive } from 'radix-ui';

import { cn } from '#src/lib/cn.ts';

export function Dialog(props: React.ComponentProps<typeof DialogPrimitive.Root>) {
  return <DialogPrimitive.Root data-slot="dialog" {...props} />;
}

export function DialogTrigger(props: React.ComponentProps<typeof DialogPrimitive.Trigger>) {
  return <DialogPrimitive.Trigger data-slot="dialog-trigger" {...props} />;
}

export function DialogPortal(props: React.ComponentProps<typeof DialogPrimitive.Portal>) {
  return <DialogPrimitive.Portal data-slot="dialog-portal" {...props} />;
}

export function DialogClose(props: React.ComponentProps<typeof DialogPrimitive.Close>) {
  return <DialogPrimitive.Close data-slot="dialog-close" {...props} />;
}

export function DialogOverlay({ className, ...props }: React.ComponentProps<typeof DialogPrimitive.Overlay>) {
  return (
    <DialogPrimitive.Overlay
      data-slot="dialog-overlay"
      className={cn(
        'fixed inset-0 z-50 bg-slate-950/50',
        'motion-safe:data-[state=open]:animate-fade-in motion-safe:data-[state=closed]:animate-fade-out',
        className,
      )}
      {...props}
    />
  );
}

/** How the corner "Close" button shows: always, only when focused (screen-reader/keyboard only), or not at all. */
export type CloseButtonMode = 'visible' | 'visually-hidden' | 'none';

export const closeButtonClassName = cn(
  'absolute top-3 right-3 inline-flex size-8 items-center justify-center rounded-md text-muted-foreground',
  'transition-colors outline-hidden hover:bg-accent hover:text-accent-foreground',
  'focus-visible:ring-2 focus-visible:ring-ring disabled:pointer-events-none',
  "[&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4",
);

export function closeButtonModeClassName(mode: CloseButtonMode) {
  return mode === 'visually-hidden' ? 'not-focus-visible:sr-only' : undefined;
}

type DialogContentProps = React.ComponentProps<typeof DialogPrimitive.Content> & {
  closeButton?: CloseButtonMode;
  /** the close button's name, in the page's language ('Close') */
  closeLabel?: string;
};

/**
 * The dialog box. Always give it a DialogTitle (wrap it in VisuallyHidden if it must not show) and
 * either a DialogDescription or `aria-describedby={undefined}`.
 */
export function DialogContent({ className, children, closeButton = 'visible', closeLabel = 'Close', ...props }: DialogContentProps) {
  return (
    <DialogPortal>
      <DialogOverlay />
      <DialogPrimitive.Content
        data-slot="dialog-content"
        className={cn(
          'fixed top-1/2 left-1/2 z-50 grid w-full max-w-[calc(100%-2rem)] -translate-x-1/2 -translate-y-1/2 gap-4 sm:max-w-lg',
          'max-h-[calc(100dvh-2rem)] overflow-y-auto rounded-lg border bg-popover p-6 text-popover-foreground shadow-lg',
          'motion-safe:data-[state=open]:animate-pop-in motion-safe:data-[state=closed]:animate-pop-out',
          className,
        )}
        {...props}
      >
        {children}
        {closeButton !== 'none' && (
          <DialogPrimitive.Close
            data-slot="dialog-close"
            className={cn(closeButtonClassName, closeButtonModeClassName(closeButton))}
          >
            <XIcon aria-hidden="true" />
            <span className="sr-only">{closeLabel}</span>
          </DialogPrimitive.Close>
        )}
      </DialogPrimitive.Content>
    </DialogPortal>
  );
}

export function DialogHeader({ className, ...props }: React.ComponentProps<'div'>) {
  return <div data-slot="dialog-header" className={cn('flex flex-col gap-2 pr-8 text-left', className)} {...props} />;
}

export function DialogFooter({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="dialog-footer"
      className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)}
      {...props}
    />
  );
}

export function DialogTitle({ className, ...props }: React.ComponentProps<typeof DialogPrimitive.Title>) {
  return (
    <DialogPrimitive.Title
      data-slot="dialog-title"
      className={cn('text-lg leading-tight font-semibold', className)}
      {...props}
    />
  );
}

export function DialogDescription({ className, ...props }: React.ComponentProps<typeof DialogPrimitive.Description>) {
  return (
    <DialogPrimitive.Description
      data-slot="dialog-description"
      className={cn('text-sm text-muted-foreground', className)}
      {...props}
    />
  );
}
