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
import { ErrorAlert } from './error-alert.tsx';

export const DELETE_WAREHOUSE_CONFIRM = 'Are you sure you want to delete this warehouse? This action cannot be undone.';
export const DELETE_WAREHOUSE_FAILED = 'Failed to delete warehouse';

export function WarehouseDelete({ id, name }: { id: string; name: string }) {
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
        <Button type="button" variant="ghost" size="icon" aria-label={`Delete ${name}`} className="text-destructive hover:text-destructive">
          <Trash2 aria-hidden="true" />
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete {name}?</AlertDialogTitle>
          <AlertDialogDescription>{DELETE_WAREHOUSE_CONFIRM}</AlertDialogDescription>
        </AlertDialogHeader>
        {error !== undefined ? <ErrorAlert fallback={DELETE_WAREHOUSE_FAILED} error={error} /> : null}
        <AlertDialogFooter>
          <AlertDialogCancel type="button">Cancel</AlertDialogCancel>
          <AlertDialogAction
            type="button"
            variant="destructive"
            disabled={pending}
            onClick={(event) => {
              event.preventDefault();
              startTransition(async () => {
                const result = await apiCall(`/api/admin/warehouses/${id}`, { method: 'DELETE' });
                if (!result.ok) {
                  setError(result.error);
                  return;
                }
                setOpen(false);
                await router.reload();
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
