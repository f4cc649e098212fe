'use client';

import { useState, type FormEvent } from 'react';
import { useRouter } from 'waku';
import type { BlockEntry } from '#api/modules/risk/model.ts';
import { BLOCK_FIELD_LABELS, BLOCK_LIMITS, BLOCK_REASON_REQUIRED, INVALID_BLOCK_ENTRY, parseBlockEntry } from '#api/modules/risk/rules.ts';
import { ErrorAlert } from '#src/components/admin/error-alert.tsx';
import { ConfirmAction } from '#src/components/common/confirm-action.tsx';
import { flash } from '#src/components/common/flash.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Input } from '#src/components/ui/input.tsx';
import { Label } from '#src/components/ui/label.tsx';
import { LengthHint } from '#src/components/ui/length-hint.tsx';
import { Textarea } from '#src/components/ui/textarea.tsx';
import { apiCall } from '#src/lib/api-client.ts';

export const ADD_BLOCK_FAILED = 'Failed to add the block list entry';

/** Adds an email or @domain with the reason; the entry is checked here as the API checks it. */
export function BlockForm() {
  const router = useRouter();
  const [entry, setEntry] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null | undefined>(undefined);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!parseBlockEntry(entry)) return setError(INVALID_BLOCK_ENTRY);
    if (!reason.trim()) return setError(BLOCK_REASON_REQUIRED);
    setPending(true);
    const result = await apiCall<BlockEntry>('/api/admin/risk/blocks', { method: 'POST', body: { entry, reason } });
    setPending(false);
    if (!result.ok || !result.data) return setError(result.error);
    setError(undefined);
    setEntry('');
    setReason('');
    flash(`Blocked ${result.data.entry}. Their new requests are refused.`);
    router.reload();
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4 rounded-md border bg-card p-4" aria-labelledby="add-block-heading">
      <h2 id="add-block-heading" className="text-lg font-semibold">
        Block an email or a domain
      </h2>
      <div className="grid gap-4 md:grid-cols-2">
        <div className="flex flex-col gap-2">
          <Label htmlFor="block-entry">{BLOCK_FIELD_LABELS.entry}</Label>
          <Input
            id="block-entry"
            name="entry"
            value={entry}
            onChange={(e) => setEntry(e.currentTarget.value)}
            required
            maxLength={BLOCK_LIMITS.entry}
            autoComplete="off"
            placeholder="name@example.com or @example.com"
            aria-describedby="block-entry-hint"
          />
          <p id="block-entry-hint" className="text-sm text-muted-foreground">
            A domain also covers its subdomains.
          </p>
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="block-reason">{BLOCK_FIELD_LABELS.reason}</Label>
          <Textarea
            id="block-reason"
            name="reason"
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            required
            rows={2}
            maxLength={BLOCK_LIMITS.reason}
            aria-describedby="block-reason-hint block-reason-length"
          />
          <p id="block-reason-hint" className="text-sm text-muted-foreground">
            For admins only: the customer reads a neutral sentence.
          </p>
          <LengthHint id="block-reason-length" label={BLOCK_FIELD_LABELS.reason} length={reason.length} max={BLOCK_LIMITS.reason} />
        </div>
      </div>
      {error !== undefined ? <ErrorAlert fallback={ADD_BLOCK_FAILED} error={error} /> : null}
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? 'Blocking...' : 'Block'}
        </Button>
      </div>
    </form>
  );
}

/** Removes one entry, after asking. */
export function UnblockButton({ entry }: { entry: BlockEntry }) {
  const router = useRouter();
  return (
    <ConfirmAction
      trigger={
        <Button type="button" variant="outline" size="sm" aria-label={`Unblock ${entry.entry}`}>
          Unblock
        </Button>
      }
      title={`Unblock ${entry.entry}?`}
      description="Their trade-in requests are accepted again at once."
      cancelLabel="Cancel"
      confirmLabel={(busy) => (busy ? 'Unblocking...' : 'Unblock')}
      run={() => apiCall(`/api/admin/risk/blocks/${entry.id}`, { method: 'DELETE' })}
      onDone={() => {
        flash(`Unblocked ${entry.entry}.`);
        router.reload();
      }}
      failure={{ inDialog: (e) => <ErrorAlert fallback="Failed to unblock" error={e} /> }}
    />
  );
}
