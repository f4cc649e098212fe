'use client';

import { Trash2 } from 'lucide-react';
import { useState, useTransition } from 'react';
import { useRouter } from 'waku';
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
import type { AdminHref } from './admin-url.ts';
import { ErrorAlert } from './error-alert.tsx';

export const DELETE_REQUEST_CONFIRM = 'Are you sure you want to delete this exchange request? This cannot be undone.';
export const DELETE_REQUEST_FAILED = 'Failed to delete exchange';

/** Deletes the request (any state) after confirmation, then returns to the dashboard tab it was in. */
export function DeleteRequestButton({ requestId, backTo }: { requestId: string; backTo: AdminHref }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null | undefined>(undefined);
  const [pending, startTransition] = useTransition();
  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        if (next) setError(undefined);
        setOpen(next);
      }}
    >
      <AlertDialogTrigger asChild>
        <Button type="button" variant="destructive">
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete exchange request?</AlertDialogTitle>
          <AlertDialogDescription>{DELETE_REQUEST_CONFIRM}</AlertDialogDescription>
        </AlertDialogHeader>
        {error !== undefined ? <ErrorAlert fallback={DELETE_REQUEST_FAILED} error={error} /> : null}
        <AlertDialogFooter>
          <AlertDialogCancel type="button">Cancel</AlertDialogCancel>
          <AlertDialogAction
            type="button"
            variant="destructive"
            disabled={pending}
            onClick={(event) => {
              event.preventDefault();
              startTransition(async () => {
                const result = await apiCall(`/api/admin/exchange-requests/${requestId}`, { method: 'DELETE' });
                if (!result.ok) {
                  setError(result.error);
                  return;
                }
                setOpen(false);
                await router.push(backTo);
              });
            }}
          >
            {pending ? 'Deleting...' : 'Delete'}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
