'use client';

import { Loader2, Printer } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import type { PickupSuggestion } from '#api/modules/shipments/model.ts';
import { Button } from '#src/components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '#src/components/ui/dialog.tsx';
import { Input } from '#src/components/ui/input.tsx';
import { Label } from '#src/components/ui/label.tsx';
import { missingPickupFields, PICKUP_FIELDS, PICKUP_LIMITS, REQUIRED_PICKUP_FIELDS, type PickupField } from '#api/modules/shipments/rules.ts';
import { flash } from '#src/components/common/flash.tsx';
import { apiCall } from '#src/lib/api-client.ts';
import { useTexts } from '#src/i18n/language-provider.tsx';
import { serverText } from '#src/i18n/server-text.ts';
import { DialogForm } from './dialog-form.tsx';
import { useRefresh } from './refresh.tsx';

const AUTOCOMPLETE: Record<PickupField, string> = {
  name: 'name',
  phone: 'tel',
  addressLine1: 'address-line1',
  addressLine2: 'address-line2',
  city: 'address-level2',
  state: 'address-level1',
  postalCode: 'postal-code',
};

type PickupValues = Partial<Record<PickupField, string>>;

/**
 * 'Get a prepaid label' and its pickup address form; on success the page shows the label and its
 * tracking. The form starts with the shop's address for the customer (GET …/label/address, asked
 * once, as the pointer reaches the button or the dialog opens); until it answers the dialog says it
 * is looking, so nothing the customer types is overwritten. Without it the form starts with `initial`.
 */
export function PrepaidLabelDialog({ requestId, initial }: { requestId: string; initial?: PickupValues }) {
  const { lang, t } = useTexts();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [missing, setMissing] = useState<Set<string>>(new Set());
  const [start, setStart] = useState<{ values: PickupValues; fromShop: boolean } | null>(null);
  const asked = useRef(false);
  const clearRefusal = () => {
    setError(null);
    setMissing(new Set());
  };

  function askForAddress() {
    if (asked.current) return;
    asked.current = true;
    void apiCall<PickupSuggestion>(`/api/exchange/${encodeURIComponent(requestId)}/label/address`).then((result) => {
      const values: PickupValues = Object.fromEntries(PICKUP_FIELDS.map((f) => [f, result.data?.[f] ?? initial?.[f]]));
      setStart({ values, fromShop: result.data?.fromShop ?? false });
    });
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = Object.fromEntries(PICKUP_FIELDS.map((f) => [f, String(form.get(f) ?? '').trim()])) as Record<PickupField, string>;
    const empty = REQUIRED_PICKUP_FIELDS.filter((f) => !body[f]);
    setMissing(new Set(empty));
    if (empty.length > 0) {
      setError(serverText(lang, missingPickupFields(empty)));
      document.getElementById(`pickup-${empty[0]}`)?.focus();
      return;
    }
    setError(null);
    setSubmitting(true);
    const result = await apiCall(`/api/exchange/${encodeURIComponent(requestId)}/label`, { method: 'POST', body });
    setSubmitting(false);
    if (!result.ok) {
      setError(serverText(lang, result.error) ?? t('label.failed'));
      return;
    }
    setOpen(false);
    flash(t('label.ready'));
    await refresh();
  }

  const field = (name: PickupField, optional = false) => (
    <div className="flex flex-col gap-2">
      <Label htmlFor={`pickup-${name}`}>
        {t(`pickup.${name}`)}
        {optional ? t('label.optional') : ''}
      </Label>
      <Input
        id={`pickup-${name}`}
        name={name}
        defaultValue={start?.values[name]}
        required={!optional}
        aria-invalid={missing.has(name) || undefined}
        maxLength={PICKUP_LIMITS[name]}
        autoComplete={AUTOCOMPLETE[name]}
        inputMode={name === 'phone' ? 'tel' : name === 'postalCode' ? 'numeric' : undefined}
      />
    </div>
  );

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          askForAddress();
          clearRefusal();
        }
      }}
    >
      <DialogTrigger asChild>
        <Button type="button" variant="outline" onPointerEnter={askForAddress} onFocus={askForAddress}>
          <Printer aria-hidden="true" />
          {t('label.get')}
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90dvh] overflow-y-auto" closeLabel={t('common.close')}>
        <DialogHeader>
          <DialogTitle>{t('label.get')}</DialogTitle>
          <DialogDescription>{t('label.intro')}</DialogDescription>
        </DialogHeader>
        {start === null ? (
          <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
            <Loader2 aria-hidden="true" className="size-4 motion-safe:animate-spin" />
            {t('label.lookingUp')}
          </p>
        ) : (
          <DialogForm onSubmit={submit} missing={missing} onFix={clearRefusal} error={error} submitting={submitting} submitLabel={t('label.book')} cancelLabel={t('common.cancel')}>
            {start.fromShop ? (
              <p className="text-sm text-muted-foreground" data-testid="pickup-from-shop">
                {t('label.fromShop')}
              </p>
            ) : null}
            {field('name')}
            {field('phone')}
            {field('addressLine1')}
            {field('addressLine2', true)}
            <div className="grid gap-4 sm:grid-cols-2">
              {field('city')}
              {field('state')}
            </div>
            {field('postalCode')}
          </DialogForm>
        )}
      </DialogContent>
    </Dialog>
  );
}
