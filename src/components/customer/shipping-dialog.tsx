'use client';

import { Truck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '#src/components/ui/dialog.tsx';
import { Input } from '#src/components/ui/input.tsx';
import { Label } from '#src/components/ui/label.tsx';
import { Textarea } from '#src/components/ui/textarea.tsx';
import { REQUEST_TEXT_LIMITS } from '#api/modules/requests/rules.ts';
import type { Language } from '#api/modules/users/rules.ts';
import { serverText } from '#src/i18n/server-text.ts';
import { translator } from '#src/i18n/t.ts';
import { flash } from '#src/components/common/flash.tsx';
import { apiCall } from '#src/lib/api-client.ts';
import { DialogForm } from './dialog-form.tsx';
import { useRefresh } from './refresh.tsx';

const ADMIN_DONE = 'Shipping details recorded for the customer. The item can now be marked as received.';

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
  /** the customer's language; an admin's dialog is English */
  lang?: Language;
}

/** 'Add Details' (or 'Correct Shipping Details') and the 'Submit Shipping Details' dialog; on success the page shows the shipped request. */
export function ShippingDialog({ requestId, mode = 'add', initial = null, carriers, maxDate, triggerLabel, lang = 'en' }: ShippingDialogProps) {
  const t = translator(mode === 'admin' ? 'en' : lang);
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [missing, setMissing] = useState<Set<string>>(new Set());
  const clearRefusal = () => {
    setError(null);
    setMissing(new Set());
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = (name: string) => String(form.get(name) ?? '').trim();
    const body = { carrierName: value('carrierName'), trackingNumber: value('trackingNumber'), shippingDate: value('shippingDate'), notes: value('notes') };
    const empty = (['carrierName', 'trackingNumber', 'shippingDate'] as const).filter((name) => !body[name]);
    setMissing(new Set(empty));
    if (empty.length > 0) {
      setError(t('shipping.fill'));
      document.getElementById(empty[0]!)?.focus();
      return;
    }
    if (body.shippingDate > maxDate) {
      setMissing(new Set(['shippingDate']));
      setError(t('shipping.future'));
      document.getElementById('shippingDate')?.focus();
      return;
    }
    setError(null);
    setSubmitting(true);
    const path = mode === 'admin' ? `/api/admin/exchange-requests/${encodeURIComponent(requestId)}/shipping` : `/api/exchange/${encodeURIComponent(requestId)}/shipping`;
    const result = await apiCall(path, { method: mode === 'add' ? 'POST' : 'PUT', body });
    setSubmitting(false);
    if (!result.ok) {
      setError(serverText(mode === 'admin' ? 'en' : lang, result.error) ?? t('shipping.failed'));
      return;
    }
    setOpen(false);
    flash(mode === 'admin' ? ADMIN_DONE : t(mode === 'add' ? 'shipping.added' : 'shipping.corrected'));
    await refresh();
  }

  const invalid = (name: string) => missing.has(name) || undefined;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          clearRefusal();
        }
      }}
    >
      <DialogTrigger asChild>
        <Button type="button" variant={mode === 'correct' ? 'outline' : 'default'} size={mode === 'admin' ? 'sm' : 'default'} className={mode === 'admin' ? 'w-fit' : undefined}>
          <Truck aria-hidden="true" />
          {triggerLabel ?? (mode === 'admin' ? 'Enter Shipping Details' : t(mode === 'add' ? 'shipping.add' : 'shipping.correct'))}
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t('common.close')}>
        <DialogHeader>
          <DialogTitle>{t('shipping.title')}</DialogTitle>
          <DialogDescription>
            {mode === 'admin'
              ? 'For a parcel that arrived without tracking details: record how the customer sent it. The timeline will say an admin entered them.'
              : t('shipping.intro')}
          </DialogDescription>
        </DialogHeader>
        <DialogForm onSubmit={submit} missing={missing} onFix={clearRefusal} error={error} submitting={submitting} submitLabel={t('shipping.submit')} cancelLabel={t('common.cancel')}>
          <div className="flex flex-col gap-2">
            <Label htmlFor="carrierName">{t('field.carrierName')}</Label>
            <Input
              id="carrierName"
              name="carrierName"
              placeholder={t('shipping.carrierExample')}
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
              {t('shipping.common', { carriers: carriers.join(', ') })}
            </p>
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="trackingNumber">{t('field.trackingNumber')}</Label>
            <Input id="trackingNumber" name="trackingNumber" defaultValue={initial?.trackingNumber} required aria-invalid={invalid('trackingNumber')} maxLength={REQUEST_TEXT_LIMITS.trackingNumber} autoComplete="off" />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="shippingDate">{t('details.shippingDate')}</Label>
            <Input id="shippingDate" name="shippingDate" type="date" defaultValue={initial?.shippingDate ?? maxDate} max={maxDate} required aria-invalid={invalid('shippingDate')} />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="notes">{t('shipping.notes')}</Label>
            <Textarea id="notes" name="notes" rows={3} maxLength={REQUEST_TEXT_LIMITS.notes} defaultValue={initial?.notes ?? undefined} />
          </div>
        </DialogForm>
      </DialogContent>
    </Dialog>
  );
}
