'use client';

import { Loader2, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useRouter } from 'waku';
import { ConfirmAction } from '#src/components/common/confirm-action.tsx';
import { Alert, AlertDescription } from '#src/components/ui/alert.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { flash } from '#src/components/common/flash.tsx';
import { apiCall } from '#src/lib/api-client.ts';

const CANCEL_FAILED = 'Failed to delete exchange request';

/** 'Cancel Request' with its confirmation; a cancelled request leaves for the dashboard, a failure closes the box and says why. */
export function CancelRequest({ requestId }: { requestId: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);

  return (
    <div className="flex flex-col gap-3">
      {error ? (
        <Alert variant="destructive">
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      ) : null}
      <ConfirmAction
        trigger={
          <Button type="button" variant="outline" className="border-destructive/40 text-destructive hover:bg-destructive/10 hover:text-destructive sm:self-start">
            <Trash2 aria-hidden="true" />
            Cancel Request
          </Button>
        }
        title="Are you sure you want to cancel this exchange request?"
        description="This action cannot be undone."
        cancelLabel="No, Keep Request"
        confirmLabel={(pending) => (
          <>
            {pending ? <Loader2 aria-hidden="true" className="motion-safe:animate-spin" /> : null}
            Yes, Cancel Request
          </>
        )}
        run={() => {
          setError(null);
          return apiCall(`/api/exchange/${encodeURIComponent(requestId)}`, { method: 'DELETE' });
        }}
        onDone={() => {
          flash('Your exchange request was cancelled. You can submit a new one any time.');
          return router.push('/dashboard');
        }}
        failure={{ closeWith: (reason) => setError(reason ?? CANCEL_FAILED) }}
      />
    </div>
  );
}
