'use client';

import { Loader2, Truck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Alert, AlertDescription } from '#src/components/ui/alert.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '#src/components/ui/dialog.tsx';
import { Input } from '#src/components/ui/input.tsx';
import { Label } from '#src/components/ui/label.tsx';
import { Textarea } from '#src/components/ui/textarea.tsx';
import { FILL_SHIPPING_FIELDS, FUTURE_SHIPPING_DATE, REQUEST_TEXT_LIMITS } from '#api/modules/requests/rules.ts';
import { flash } from '#src/components/common/flash.tsx';
import { apiCall } from '#src/lib/api-client.ts';
import { useRefresh } from './refresh.tsx';

const SHIPPING_FAILED = 'Failed to submit shipping details';
const DONE = {
  add: 'Shipping details saved. We will tell you when your item arrives at the warehouse.',
  correct: 'Shipping details corrected. You can change them again until the item is received.',
  admin: 'Shipping details recorded for the customer. The item can now be marked as received.',
} as const;

export interface ShippingDialogProps {
  requestId: string;
  /**
   * 'add' the first time (POST), 'correct' until the item is received (PUT, the form filled in);
   * 'admin': an admin records them for the customer (a parcel that came without), same fields and checks
   */
  mode?: 'add' | 'correct' | 'admin';
  initial?: { carrierName: string; trackingNumber: string; shippingDate: string; notes?: string | null } | null;
  /** carriers common in the shop's country, offered as suggestions */
  carriers: readonly string[];
  /** today in the shop's time zone: the latest shipping date accepted */
  maxDate: string;
  triggerLabel?: string;
}

/** 'Add Details' (or 'Correct Shipping Details') and the 'Submit Shipping Details' dialog; on success the page shows the shipped request. */
export function ShippingDialog({ requestId, mode = 'add', initial = null, carriers, maxDate, triggerLabel }: ShippingDialogProps) {
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
      setError(FILL_SHIPPING_FIELDS);
      document.getElementById(empty[0]!)?.focus();
      return;
    }
    if (body.shippingDate > maxDate) {
      setMissing(new Set(['shippingDate']));
      setError(FUTURE_SHIPPING_DATE);
      document.getElementById('shippingDate')?.focus();
      return;
    }
    setError(null);
    setSubmitting(true);
    const path = mode === 'admin' ? `/api/admin/exchange-requests/${encodeURIComponent(requestId)}/shipping` : `/api/exchange/${encodeURIComponent(requestId)}/shipping`;
    const result = await apiCall(path, { method: mode === 'add' ? 'POST' : 'PUT', body });
    setSubmitting(false);
    if (!result.ok) {
      setError(result.error ?? SHIPPING_FAILED);
      return;
    }
    setOpen(false);
    flash(DONE[mode]);
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
        <Button type="button" variant={mode === 'correct' ? 'outline' : 'default'} size={mode === 'admin' ? 'sm' : 'default'} className={mode === 'admin' ? 'w-fit' : undefined}>
          <Truck aria-hidden="true" />
          {triggerLabel ?? (mode === 'add' ? 'Add Details' : mode === 'admin' ? 'Enter Shipping Details' : 'Correct Shipping Details')}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Submit Shipping Details</DialogTitle>
          <DialogDescription>
            {mode === 'admin'
              ? 'For a parcel that arrived without tracking details: record how the customer sent it. The timeline will say an admin entered them.'
              : 'Tell us how you sent the item so we can follow it to the warehouse.'}
          </DialogDescription>
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
            <Input
              id="carrierName"
              name="carrierName"
              placeholder="USPS, FedEx, UPS etc."
              list="carrier-suggestions"
              defaultValue={initial?.carrierName}
              required
              aria-invalid={invalid('carrierName')}
              aria-describedby="carrier-hint"
              maxLength={REQUEST_TEXT_LIMITS.carrierName}
            />
            <datalist id="carrier-suggestions">
              {carriers.map((carrier) => (
                <option key={carrier} value={carrier} />
              ))}
            </datalist>
            <p id="carrier-hint" className="text-xs text-muted-foreground" data-testid="carrier-hint">
              Common here: {carriers.join(', ')}
            </p>
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="trackingNumber">Tracking Number</Label>
            <Input id="trackingNumber" name="trackingNumber" defaultValue={initial?.trackingNumber} required aria-invalid={invalid('trackingNumber')} maxLength={REQUEST_TEXT_LIMITS.trackingNumber} autoComplete="off" />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="shippingDate">Shipping Date</Label>
            <Input id="shippingDate" name="shippingDate" type="date" defaultValue={initial?.shippingDate ?? maxDate} max={maxDate} required aria-invalid={invalid('shippingDate')} />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="notes">Additional Notes (Optional)</Label>
            <Textarea id="notes" name="notes" rows={3} maxLength={REQUEST_TEXT_LIMITS.notes} defaultValue={initial?.notes ?? undefined} />
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
