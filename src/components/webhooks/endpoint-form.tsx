'use client';

import { useState, type FormEvent } from 'react';
import { useRouter } from 'waku';
import type { CreatedWebhookEndpoint } from '#api/modules/webhooks/model.ts';
import { INVALID_EVENTS, WEBHOOK_EVENT_TYPES } from '#api/modules/webhooks/rules.ts';
import { ErrorAlert } from '#src/components/admin/error-alert.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Input } from '#src/components/ui/input.tsx';
import { Label } from '#src/components/ui/label.tsx';
import { apiCall } from '#src/lib/api-client.ts';

export const ADD_ENDPOINT_FAILED = 'Failed to add the webhook endpoint';

/** Adds an endpoint; its secret is shown here once, to be copied into the receiver. */
export function EndpointForm() {
  const router = useRouter();
  const [events, setEvents] = useState<string[]>([...WEBHOOK_EVENT_TYPES]);
  const [error, setError] = useState<string | null | undefined>(undefined);
  const [created, setCreated] = useState<CreatedWebhookEndpoint | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const url = String(new FormData(event.currentTarget).get('url') ?? '').trim();
    if (events.length === 0) return setError(INVALID_EVENTS);
    setPending(true);
    const result = await apiCall<CreatedWebhookEndpoint>('/api/admin/webhooks', { method: 'POST', body: { url, events } });
    setPending(false);
    if (!result.ok || !result.data) return setError(result.error);
    setError(undefined);
    setCreated(result.data);
    router.reload();
  }

  const toggle = (type: string, on: boolean) => setEvents((list) => (on ? [...list, type] : list.filter((e) => e !== type)));

  return (
    <form onSubmit={submit} className="flex flex-col gap-4 rounded-md border bg-card p-4" aria-labelledby="add-endpoint-heading">
      <h2 id="add-endpoint-heading" className="text-lg font-semibold">
        Add an endpoint
      </h2>
      <div className="flex flex-col gap-2">
        <Label htmlFor="webhook-url">URL</Label>
        <Input id="webhook-url" name="url" type="url" required placeholder="https://hooks.example.com/swappoints" aria-describedby="webhook-url-hint" />
        <p id="webhook-url-hint" className="text-sm text-muted-foreground">
          https only; private and loopback addresses are refused.
        </p>
      </div>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm font-medium">Events</legend>
        <div className="grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-3">
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="flex min-h-9 items-center gap-2 text-sm">
              <input type="checkbox" className="size-4" checked={events.includes(type)} onChange={(e) => toggle(type, e.currentTarget.checked)} />
              <code>{type}</code>
            </label>
          ))}
        </div>
      </fieldset>
      {error !== undefined ? <ErrorAlert fallback={ADD_ENDPOINT_FAILED} error={error} /> : null}
      {created ? (
        <div role="status" className="flex flex-col gap-2 rounded-md border border-success bg-success/10 p-3 text-sm">
          <p className="font-medium">Endpoint added. Copy its signing secret now: it is not shown again.</p>
          <code className="break-all rounded bg-card px-2 py-1" data-testid="webhook-secret">
            {created.secret}
          </code>
        </div>
      ) : null}
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? 'Adding...' : 'Add endpoint'}
        </Button>
      </div>
    </form>
  );
}
