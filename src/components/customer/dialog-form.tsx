'use client';

import { Loader2 } from 'lucide-react';
import type { FormEvent, ReactNode } from 'react';
import { Alert, AlertDescription } from '#src/components/ui/alert.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { DialogClose, DialogFooter } from '#src/components/ui/dialog.tsx';

/**
 * A dialog's form, checked by its own code (`noValidate`): the fields (`children`), the sentence it was
 * refused with, then Cancel and the submit button, which spins and waits while `submitting`.
 * The first keystroke after a refusal that marked fields `missing` calls `onFix`, which clears the refusal.
 */
export function DialogForm({
  onSubmit,
  missing,
  onFix,
  error,
  submitting,
  submitLabel,
  cancelLabel,
  children,
}: {
  onSubmit: (event: FormEvent<HTMLFormElement>) => Promise<void>;
  missing: ReadonlySet<string>;
  onFix: () => void;
  error: string | null;
  submitting: boolean;
  submitLabel: string;
  cancelLabel: string;
  children: ReactNode;
}) {
  return (
    <form onSubmit={(event) => void onSubmit(event)} onInput={() => missing.size > 0 && onFix()} noValidate className="flex flex-col gap-4">
      {children}
      {error ? (
        <Alert variant="destructive">
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      ) : null}
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">
            {cancelLabel}
          </Button>
        </DialogClose>
        <Button type="submit" disabled={submitting}>
          {submitting ? <Loader2 aria-hidden="true" className="motion-safe:animate-spin" /> : null}
          {submitLabel}
        </Button>
      </DialogFooter>
    </form>
  );
}
