'use client';

import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useRouter } from 'waku';
import type { OpenRequest } from '#api/modules/warehouses/model.ts';
import { ConfirmAction } from '#src/components/common/confirm-action.tsx';
import { flash } from '#src/components/common/flash.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { apiCall } from '#src/lib/api-client.ts';
import { ErrorAlert } from './error-alert.tsx';

export const DELETE_WAREHOUSE_CONFIRM = 'Are you sure you want to delete this warehouse? This action cannot be undone.';
export const DELETE_WAREHOUSE_FAILED = 'Failed to delete warehouse';

/** Delete, after a confirmation that lists the open requests shipping there (they keep its address). */
export function WarehouseDelete({ id, name }: { id: string; name: string }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [requests, setRequests] = useState<OpenRequest[] | null>(null);

  const start = () => {
    setRequests(null);
    setOpen(true);
    void apiCall<OpenRequest[]>(`/api/admin/warehouses/${id}/open-requests`).then((result) => setRequests(result.ok && result.data ? result.data : []));
  };

  return (
    <>
      <Button type="button" variant="ghost" size="icon" aria-label={`Delete ${name}`} className="text-destructive hover:text-destructive" onClick={start}>
        <Trash2 aria-hidden="true" />
      </Button>
      <ConfirmAction
        open={open}
        onOpenChange={setOpen}
        title={`Delete ${name}?`}
        description={
          <span className="flex flex-col gap-2">
            <span>{DELETE_WAREHOUSE_CONFIRM}</span>
            {requests && requests.length > 0 ? (
              <span className="flex flex-col gap-1 rounded-md border border-warning/40 bg-warning/5 p-3 text-foreground" data-testid="warehouse-open-requests">
                <span className="font-medium">
                  {requests.length === 1 ? '1 open request ships' : `${requests.length} open requests ship`} to this warehouse:
                </span>
                <span className="flex flex-col">
                  {requests.map((r) => (
                    <Link key={r.id} to={`/admin/exchange/${r.id}`} className="text-primary underline-offset-4 hover:underline">
                      {r.productName} ({r.customerEmail})
                    </Link>
                  ))}
                </span>
                <span>They keep the address they were approved with (a snapshot), so their customers can still ship there.</span>
              </span>
            ) : null}
          </span>
        }
        cancelLabel="Cancel"
        confirmLabel={(pending) => (pending ? 'Deleting...' : 'Delete')}
        run={() => apiCall(`/api/admin/warehouses/${id}`, { method: 'DELETE' })}
        onDone={() => {
          flash(`Warehouse "${name}" deleted.`);
          return router.reload();
        }}
        failure={{ inDialog: (error) => <ErrorAlert fallback={DELETE_WAREHOUSE_FAILED} error={error} /> }}
      />
    </>
  );
}
