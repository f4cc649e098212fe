'use client';

import { Trash2 } from 'lucide-react';
import { useRouter } from 'waku';
import { ConfirmAction } from '#src/components/common/confirm-action.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { apiCall } from '#src/lib/api-client.ts';
import { ErrorAlert } from './error-alert.tsx';

export const DELETE_WAREHOUSE_CONFIRM = 'Are you sure you want to delete this warehouse? This action cannot be undone.';
export const DELETE_WAREHOUSE_FAILED = 'Failed to delete warehouse';

export function WarehouseDelete({ id, name }: { id: string; name: string }) {
  const router = useRouter();
  return (
    <ConfirmAction
      trigger={
        <Button type="button" variant="ghost" size="icon" aria-label={`Delete ${name}`} className="text-destructive hover:text-destructive">
          <Trash2 aria-hidden="true" />
        </Button>
      }
      title={`Delete ${name}?`}
      description={DELETE_WAREHOUSE_CONFIRM}
      cancelLabel="Cancel"
      confirmLabel={(pending) => (pending ? 'Deleting...' : 'Delete')}
      run={() => apiCall(`/api/admin/warehouses/${id}`, { method: 'DELETE' })}
      onDone={() => router.reload()}
      failure={{ inDialog: (error) => <ErrorAlert fallback={DELETE_WAREHOUSE_FAILED} error={error} /> }}
    />
  );
}
