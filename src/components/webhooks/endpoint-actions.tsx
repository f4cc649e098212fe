'use client';

import { useState } from 'react';
import { useRouter } from 'waku';
import { ErrorAlert } from '#src/components/admin/error-alert.tsx';
import { ConfirmAction } from '#src/components/common/confirm-action.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { apiCall } from '#src/lib/api-client.ts';

/** Turn an endpoint off or on again, or remove it. */
export function EndpointActions({ id, url, enabled }: { id: string; url: string; enabled: boolean }) {
  const router = useRouter();
  const [error, setError] = useState<string | null | undefined>(undefined);
  const [pending, setPending] = useState(false);
  async function toggle() {
    setPending(true);
    const result = await apiCall(`/api/admin/webhooks/${id}`, { method: 'PUT', body: { enabled: !enabled } });
    setPending(false);
    if (!result.ok) return setError(result.error);
    router.reload();
  }
  return (
    <div className="flex flex-col items-end gap-2">
      <div className="inline-flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" size="sm" disabled={pending} onClick={toggle} aria-label={`${enabled ? 'Turn off' : 'Turn on'} ${url}`}>
          {enabled ? 'Turn off' : 'Turn on'}
        </Button>
        <ConfirmAction
          trigger={
            <Button type="button" variant="outline" size="sm" className="text-destructive" aria-label={`Remove ${url}`}>
              Remove
            </Button>
          }
          title="Remove this endpoint?"
          description={`${url} will get no more events, and its delivery log is deleted.`}
          cancelLabel="Cancel"
          confirmLabel={(busy) => (busy ? 'Removing...' : 'Remove')}
          run={() => apiCall(`/api/admin/webhooks/${id}`, { method: 'DELETE' })}
          onDone={() => router.reload()}
          failure={{ inDialog: (e) => <ErrorAlert fallback="Failed to remove the endpoint" error={e} /> }}
        />
      </div>
      {error !== undefined ? <ErrorAlert fallback="Failed to change the endpoint" error={error} /> : null}
    </div>
  );
}

/** Send one delivery again now. */
export function RedeliverButton({ id }: { id: number }) {
  const router = useRouter();
  const [error, setError] = useState<string | null | undefined>(undefined);
  const [pending, setPending] = useState(false);
  async function run() {
    setPending(true);
    const result = await apiCall(`/api/admin/webhooks/deliveries/${id}/redeliver`, { method: 'POST' });
    setPending(false);
    if (!result.ok) return setError(result.error);
    router.reload();
  }
  return (
    <>
      <Button type="button" variant="outline" size="sm" disabled={pending} onClick={run} aria-label={`Redeliver delivery ${id}`}>
        {pending ? 'Sending...' : 'Redeliver'}
      </Button>
      {error !== undefined ? <ErrorAlert fallback="Failed to redeliver" error={error} /> : null}
    </>
  );
}
