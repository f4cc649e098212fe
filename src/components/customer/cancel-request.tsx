'use client';

import { Loader2, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useRouter } from 'waku';
import { Alert, AlertDescription } from '#src/components/ui/alert.tsx';
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
import { Button } from '#src/components/ui/button.tsx';
import { apiCall } from '#src/lib/api-client.ts';

const CANCEL_FAILED = 'Failed to delete exchange request';

/** 'Cancel Request' with its confirmation; a cancelled request leaves for the dashboard, a failure closes the box and says why. */
export function CancelRequest({ requestId }: { requestId: string }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function cancel() {
    setBusy(true);
    setError(null);
    const result = await apiCall(`/api/exchange/${encodeURIComponent(requestId)}`, { method: 'DELETE' });
    if (result.ok) {
      router.push('/dashboard');
      return;
    }
    setBusy(false);
    setOpen(false);
    setError(result.error ?? CANCEL_FAILED);
  }

  return (
    <div className="flex flex-col gap-3">
      {error ? (
        <Alert variant="destructive">
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      ) : null}
      <AlertDialog open={open} onOpenChange={(next) => (busy ? null : setOpen(next))}>
        <AlertDialogTrigger asChild>
          <Button type="button" variant="outline" className="border-destructive/40 text-destructive hover:bg-destructive/10 hover:text-destructive sm:self-start">
            <Trash2 aria-hidden="true" />
            Cancel Request
          </Button>
        </AlertDialogTrigger>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Are you sure you want to cancel this exchange request?</AlertDialogTitle>
            <AlertDialogDescription>This action cannot be undone.</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={busy}>No, Keep Request</AlertDialogCancel>
            <AlertDialogAction
              variant="destructive"
              disabled={busy}
              onClick={(event) => {
                event.preventDefault();
                void cancel();
              }}
            >
              {busy ? <Loader2 aria-hidden="true" className="motion-safe:animate-spin" /> : null}
              Yes, Cancel Request
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}
