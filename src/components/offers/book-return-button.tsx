'use client';

import { Loader2, PackageCheck } from 'lucide-react';
import { useState } from 'react';
import { useRouter } from 'waku';
import type { ReturnBooking } from '#api/modules/shipments/model.ts';
import { RETURN_CARRIER_FAILED } from '#api/modules/shipments/rules.ts';
import { flash } from '#src/components/common/flash.tsx';
import { Alert, AlertDescription } from '#src/components/ui/alert.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { apiCall } from '#src/lib/api-client.ts';

/**
 * Admin, with a carrier configured: books a declined offer's return from the request's warehouse to
 * the customer's address. The page then shows its AWB, label and tracking; a failure says why and
 * leaves the button (and the manual form below it) to try again.
 */
export function BookReturnButton({ requestId }: { requestId: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function book() {
    setBusy(true);
    setError(null);
    const result = await apiCall<ReturnBooking>(`/api/admin/exchange-requests/${encodeURIComponent(requestId)}/return/book`, { method: 'POST' });
    setBusy(false);
    if (!result.ok || !result.data) {
      setError(result.error ?? RETURN_CARRIER_FAILED);
      return;
    }
    flash(`Return booked with ${result.data.carrier}, tracking ${result.data.trackingNumber}. The customer has been emailed the tracking number.`);
    await router.reload();
  }

  return (
    <div className="flex flex-col gap-2">
      {error ? (
        <Alert variant="destructive">
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      ) : null}
      <p className="text-muted-foreground">The carrier collects it from the warehouse and delivers it to the address above; print its label and stick it on the parcel.</p>
      <Button type="button" size="sm" className="w-fit" onClick={book} disabled={busy}>
        {busy ? <Loader2 aria-hidden="true" className="motion-safe:animate-spin" /> : <PackageCheck aria-hidden="true" />}
        Book the return
      </Button>
    </div>
  );
}
