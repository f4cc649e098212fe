'use client';

import { Ellipsis, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useRouter } from 'waku';
import { ConfirmAction } from '#src/components/common/confirm-action.tsx';
import { flash } from '#src/components/common/flash.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '#src/components/ui/dropdown-menu.tsx';
import { apiCall } from '#src/lib/api-client.ts';
import type { AdminHref } from './admin-url.ts';
import { ErrorAlert } from './error-alert.tsx';

export const DELETE_REQUEST_CONFIRM = 'Are you sure you want to delete this exchange request? This cannot be undone.';
export const DELETE_REQUEST_FAILED = 'Failed to delete exchange';

/**
 * 'More': the request's destructive actions, out of the way of the decision. Delete (any state)
 * asks first, then returns to the dashboard tab the request was in.
 */
export function DeleteRequestButton({ requestId, productName, backTo }: { requestId: string; productName: string; backTo: AdminHref }) {
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button type="button" variant="outline">
            <Ellipsis aria-hidden="true" />
            More
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuItem variant="destructive" onSelect={() => setConfirming(true)}>
            <Trash2 aria-hidden="true" />
            Delete
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <ConfirmAction
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete exchange request?"
        description={DELETE_REQUEST_CONFIRM}
        cancelLabel="Cancel"
        confirmLabel={(pending) => (pending ? 'Deleting...' : 'Delete')}
        run={() => apiCall(`/api/admin/exchange-requests/${requestId}`, { method: 'DELETE' })}
        onDone={() => {
          flash(`Request "${productName}" deleted.`);
          return router.push(backTo);
        }}
        failure={{ inDialog: (error) => <ErrorAlert fallback={DELETE_REQUEST_FAILED} error={error} /> }}
      />
    </>
  );
}
