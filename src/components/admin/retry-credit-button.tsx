'use client';

import { RotateCw } from 'lucide-react';
import { useState, useTransition } from 'react';
import { useRouter } from 'waku';
import type { CreditRecord } from '#api/modules/credit/model.ts';
import { Button } from '#src/components/ui/button.tsx';
import { flash } from '#src/components/common/flash.tsx';
import { apiCall } from '#src/lib/api-client.ts';

export const RETRY_FAILED = 'Failed to retry the credit push';

/** What a retry that failed again says: why, and how many attempts have been made. */
export const retryFailedMessage = (attempts: number, reason: string | null) =>
  `The shop refused the credit again (${attempts} ${attempts === 1 ? 'attempt' : 'attempts'} so far): ${reason ?? 'no reason given'}. It will be retried automatically.`;

/** Pushes a failed credit to the shop again, then shows the history afresh. */
export function RetryCreditButton({ id, label }: { id: number; label: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null | undefined>(undefined);
  return (
    <div className="flex flex-col items-start gap-1">
      <Button
        type="button"
        variant="outline"
        size="sm"
        disabled={pending}
        aria-label={label}
        onClick={() =>
          startTransition(async () => {
            setError(undefined);
            const result = await apiCall<CreditRecord>(`/api/admin/credit-history/${id}/retry`, {
              method: 'POST',
            });
            if (!result.ok) {
              setError(result.error);
              return;
            }
            const record = result.data;
            if (record?.pushStatus === 'failed') {
              flash(retryFailedMessage(record.pushAttempts, record.pushError), 'error');
            } else {
              flash(record?.pushStatus === 'success' ? 'The credit reached the shop.' : 'The credit is on its way to the shop.');
            }
            await router.reload();
          })
        }
      >
        <RotateCw aria-hidden="true" className={pending ? 'motion-safe:animate-spin' : undefined} />
        Retry
      </Button>
      {error !== undefined ? (
        <p role="alert" className="max-w-56 text-xs whitespace-normal text-destructive">
          {error ?? RETRY_FAILED}
        </p>
      ) : null}
    </div>
  );
}
