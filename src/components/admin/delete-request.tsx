'use client';

import { Trash2 } from 'lucide-react';
import { useRouter } from 'waku';
import { ConfirmAction } from '#src/components/common/confirm-action.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { apiCall } from '#src/lib/api-client.ts';
import type { AdminHref } from './admin-url.ts';
import { ErrorAlert } from './error-alert.tsx';

export const DELETE_REQUEST_CONFIRM = 'Are you sure you want to delete this exchange request? This cannot be undone.';
export const DELETE_REQUEST_FAILED = 'Failed to delete exchange';

/** Deletes the request (any state) after confirmation, then returns to the dashboard tab it was in. */
export function DeleteRequestButton({ requestId, backTo }: { requestId: string; backTo: AdminHref }) {
  const router = useRouter();
  return (
    <ConfirmAction
      trigger={
        <Button type="button" variant="destructive">
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      }
      title="Delete exchange request?"
      description={DELETE_REQUEST_CONFIRM}
      cancelLabel="Cancel"
      confirmLabel={(pending) => (pending ? 'Deleting...' : 'Delete')}
      run={() => apiCall(`/api/admin/exchange-requests/${requestId}`, { method: 'DELETE' })}
      onDone={() => router.push(backTo)}
      failure={{ inDialog: (error) => <ErrorAlert fallback={DELETE_REQUEST_FAILED} error={error} /> }}
    />
  );
}
