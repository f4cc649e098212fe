'use client';

import { useState, useTransition, type ReactElement, type ReactNode } from 'react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '#src/components/ui/alert-dialog.tsx';
import type { ClientResult } from '#src/lib/api-client.ts';

/**
 * Where a refused call is told; `error` is the server's reason, or null when it gave none.
 * - `inDialog`: the confirmation stays open and shows what this returns.
 * - `closeWith`: the confirmation closes and hands the reason to the caller to show. Such a
 *   confirmation cannot be dismissed while the call runs, and stays up through `onDone`.
 */
export type ConfirmFailure = { inDialog: (error: string | null) => ReactNode } | { closeWith: (error: string | null) => void };

/** A destructive action behind a confirmation: `trigger` opens it, the confirm button runs `run`, then `onDone`. */
export function ConfirmAction({
  trigger,
  title,
  description,
  cancelLabel,
  confirmLabel,
  run,
  onDone,
  failure,
  open: controlledOpen,
  onOpenChange,
}: {
  /** what opens it; leave out and pass `open`/`onOpenChange` when something else does (a menu item) */
  trigger?: ReactElement;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  cancelLabel: string;
  /** the confirm button's content, while the call runs and otherwise */
  confirmLabel: (pending: boolean) => ReactNode;
  run: () => Promise<ClientResult<unknown>>;
  onDone: () => Promise<void> | void;
  failure: ConfirmFailure;
}) {
  const [ownOpen, setOwnOpen] = useState(false);
  const open = controlledOpen ?? ownOpen;
  const setOpen = (next: boolean) => {
    if (controlledOpen === undefined) setOwnOpen(next);
    onOpenChange?.(next);
  };
  const [error, setError] = useState<string | null | undefined>(undefined);
  const [pending, startTransition] = useTransition();
  const locked = pending && 'closeWith' in failure;

  const confirm = () => {
    // started outside the transition, so whatever `run` sets before its call shows at once
    const call = run();
    startTransition(async () => {
      const result = await call;
      if (!result.ok) {
        if ('closeWith' in failure) {
          setOpen(false);
          failure.closeWith(result.error);
        } else setError(result.error);
        return;
      }
      if ('inDialog' in failure) setOpen(false);
      await onDone();
    });
  };

  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        if (locked) return;
        if (next) setError(undefined);
        setOpen(next);
      }}
    >
      {trigger ? <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger> : null}
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {'inDialog' in failure && error !== undefined ? failure.inDialog(error) : null}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={locked}>{cancelLabel}</AlertDialogCancel>
          <AlertDialogAction
            variant="destructive"
            disabled={pending}
            onClick={(event) => {
              event.preventDefault();
              confirm();
            }}
          >
            {confirmLabel(pending)}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
