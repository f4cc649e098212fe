'use client';

import { Loader2, Truck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Alert, AlertDescription } from '#src/components/ui/alert.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '#src/components/ui/dialog.tsx';
import { Input } from '#src/components/ui/input.tsx';
import { Label } from '#src/components/ui/label.tsx';
import { Textarea } from '#src/components/ui/textarea.tsx';
import { apiCall } from '#src/lib/api-client.ts';
import { useRefresh } from './refresh.tsx';

const FILL_SHIPPING = 'Please fill in all required shipping fields';
const SHIPPING_FAILED = 'Failed to submit shipping details';

/** Today as yyyy-mm-dd in the browser's own calendar. */
function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** 'Add Details' and the 'Submit Shipping Details' dialog; on success the page shows the shipped request. */
export function ShippingDialog({ requestId, triggerLabel = 'Add Details' }: { requestId: string; triggerLabel?: string }) {
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [missing, setMissing] = useState<Set<string>>(new Set());

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = (name: string) => String(form.get(name) ?? '').trim();
    const body = { carrierName: value('carrierName'), trackingNumber: value('trackingNumber'), shippingDate: value('shippingDate'), notes: value('notes') };
    const empty = (['carrierName', 'trackingNumber', 'shippingDate'] as const).filter((name) => !body[name]);
    setMissing(new Set(empty));
    if (empty.length > 0) {
      setError(FILL_SHIPPING);
      return;
    }
    setError(null);
    setSubmitting(true);
    const result = await apiCall(`/api/exchange/${encodeURIComponent(requestId)}/shipping`, { method: 'POST', body });
    setSubmitting(false);
    if (!result.ok) {
      setError(result.error ?? SHIPPING_FAILED);
      return;
    }
    setOpen(false);
    await refresh();
  }

  const invalid = (name: string) => missing.has(name) || undefined;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          setError(null);
          setMissing(new Set());
        }
      }}
    >
      <DialogTrigger asChild>
        <Button type="button">
          <Truck aria-hidden="true" />
          {triggerLabel}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Submit Shipping Details</DialogTitle>
          <DialogDescription>Tell us how you sent the item so we can follow it to the warehouse.</DialogDescription>
        </DialogHeader>
        <form
          onSubmit={(event) => void submit(event)}
          onInput={() => {
            if (missing.size === 0) return;
            setMissing(new Set());
            setError(null);
          }}
          noValidate
          className="flex flex-col gap-4"
        >
          <div className="flex flex-col gap-2">
            <Label htmlFor="carrierName">Carrier Name</Label>
            <Input id="carrierName" name="carrierName" placeholder="USPS, FedEx, UPS etc." required aria-invalid={invalid('carrierName')} maxLength={100} />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="trackingNumber">Tracking Number</Label>
            <Input id="trackingNumber" name="trackingNumber" required aria-invalid={invalid('trackingNumber')} maxLength={100} autoComplete="off" />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="shippingDate">Shipping Date</Label>
            <Input id="shippingDate" name="shippingDate" type="date" defaultValue={today()} required aria-invalid={invalid('shippingDate')} />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="notes">Additional Notes (Optional)</Label>
            <Textarea id="notes" name="notes" rows={3} maxLength={2000} />
          </div>
          {error ? (
            <Alert variant="destructive">
              <AlertDescription>{error}</AlertDescription>
            </Alert>
          ) : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" disabled={submitting}>
              {submitting ? <Loader2 aria-hidden="true" className="motion-safe:animate-spin" /> : null}
              Submit
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
