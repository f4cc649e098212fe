'use client';

import { Loader2, Truck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useRouter } from 'waku';
import { RETURN_BODY } from '#api/modules/credit/rules.ts';
import { REQUEST_TEXT_LIMITS } from '#api/modules/requests/rules.ts';
import { flash } from '#src/components/common/flash.tsx';
import { Alert, AlertDescription } from '#src/components/ui/alert.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Input } from '#src/components/ui/input.tsx';
import { Label } from '#src/components/ui/label.tsx';
import { apiCall } from '#src/lib/api-client.ts';

/** Admin: the carrier and tracking number of a declined offer's return, once it is sent. */
export function ReturnShipmentForm({ requestId }: { requestId: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = { carrierName: String(form.get('carrierName') ?? '').trim(), trackingNumber: String(form.get('trackingNumber') ?? '').trim() };
    if (!body.carrierName || !body.trackingNumber) {
      setError(RETURN_BODY);
      document.getElementById(body.carrierName ? 'return-tracking' : 'return-carrier')?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    const result = await apiCall(`/api/admin/exchange-requests/${encodeURIComponent(requestId)}/return`, { method: 'POST', body });
    setBusy(false);
    if (!result.ok) {
      setError(result.error ?? 'The return could not be recorded. Please try again.');
      return;
    }
    flash('Return recorded. The customer has been emailed the tracking number.');
    await router.reload();
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-3" noValidate>
      {error ? (
        <Alert variant="destructive">
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      ) : null}
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="return-carrier">Carrier Name</Label>
        <Input id="return-carrier" name="carrierName" maxLength={REQUEST_TEXT_LIMITS.carrierName} required />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="return-tracking">Tracking Number</Label>
        <Input id="return-tracking" name="trackingNumber" maxLength={REQUEST_TEXT_LIMITS.trackingNumber} required />
      </div>
      <Button type="submit" size="sm" className="w-fit" disabled={busy}>
        {busy ? <Loader2 aria-hidden="true" className="motion-safe:animate-spin" /> : <Truck aria-hidden="true" />}
        Record return shipment
      </Button>
    </form>
  );
}
