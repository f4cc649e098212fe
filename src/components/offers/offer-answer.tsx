'use client';

import { Loader2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { RETURN_ADDRESS_FIELDS, RETURN_ADDRESS_NEEDED, type ReturnAddressField } from '#api/modules/credit/rules.ts';
import { useTexts } from '#src/i18n/language-provider.tsx';
import { serverText } from '#src/i18n/server-text.ts';
import { flash } from '#src/components/common/flash.tsx';
import { useRefresh } from '#src/components/customer/refresh.tsx';
import { Alert, AlertDescription } from '#src/components/ui/alert.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Input } from '#src/components/ui/input.tsx';
import { Label } from '#src/components/ui/label.tsx';
import { apiCall } from '#src/lib/api-client.ts';

const FIELDS = Object.entries(RETURN_ADDRESS_FIELDS) as [ReturnAddressField, (typeof RETURN_ADDRESS_FIELDS)[ReturnAddressField]][];

/**
 * The customer's answer to a revised offer: Accept, or Decline and then "Send it back to me" (with
 * the address form) or "Recycle it, no credit". A plain form: it works with the keyboard and the
 * API says what is wrong in the same words.
 */
export function OfferAnswer({ requestId, amount }: { requestId: string; amount: string }) {
  const { lang, t } = useTexts();
  const refresh = useRefresh();
  const [declining, setDeclining] = useState(false);
  const [choice, setChoice] = useState<'return' | 'recycle' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [missing, setMissing] = useState<Set<string>>(new Set());

  async function send(path: string, body: unknown, done: string) {
    setBusy(true);
    setError(null);
    const result = await apiCall(`/api/exchange/${encodeURIComponent(requestId)}/offer/${path}`, { method: 'POST', body });
    setBusy(false);
    if (!result.ok) {
      setError(serverText(lang, result.error) ?? t('offer.answerFailed'));
      return;
    }
    flash(done);
    await refresh();
  }

  async function decline(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!choice) {
      setError(t('offer.chooseWhat'));
      return;
    }
    if (choice === 'recycle') return send('decline', { choice }, t('offer.declinedRecycle'));
    const form = new FormData(event.currentTarget);
    const address = Object.fromEntries(FIELDS.map(([field]) => [field, String(form.get(field) ?? '').trim()]));
    const empty = FIELDS.filter(([field, spec]) => spec.required && !address[field]).map(([field]) => field);
    setMissing(new Set(empty));
    if (empty.length > 0) {
      setError(serverText(lang, RETURN_ADDRESS_NEEDED));
      document.getElementById(`return-${empty[0]}`)?.focus();
      return;
    }
    return send('decline', { choice, address }, t('offer.declinedReturn'));
  }

  return (
    <div className="flex flex-col gap-3">
      {error ? (
        <Alert variant="destructive">
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      ) : null}
      {!declining ? (
        <div className="flex flex-wrap gap-2">
          <Button type="button" disabled={busy} onClick={() => send('accept', undefined, t('offer.acceptedFlash', { amount }))}>
            {busy ? <Loader2 aria-hidden="true" className="motion-safe:animate-spin" /> : null}
            {t('offer.accept', { amount })}
          </Button>
          <Button type="button" variant="outline" disabled={busy} onClick={() => setDeclining(true)}>
            {t('offer.decline')}
          </Button>
        </div>
      ) : (
        <form onSubmit={decline} className="flex flex-col gap-4" noValidate>
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium">{t('offer.what')}</legend>
            {(
              [
                ['return', t('offer.return'), t('offer.returnHint')],
                ['recycle', t('offer.recycle'), t('offer.recycleHint')],
              ] as const
            ).map(([value, label, hint]) => (
              <label key={value} className="flex cursor-pointer items-start gap-2 rounded-md border p-3 text-sm has-[:checked]:border-primary">
                <input type="radio" name="choice" value={value} checked={choice === value} onChange={() => setChoice(value)} className="mt-0.5" />
                <span className="flex flex-col">
                  <span className="font-medium">{label}</span>
                  <span className="text-muted-foreground">{hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
          {choice === 'return' ? (
            <fieldset className="grid gap-3 sm:grid-cols-2">
              <legend className="mb-1 text-sm font-medium">{t('offer.returnAddress')}</legend>
              {FIELDS.map(([field, spec]) => (
                <div key={field} className={field === 'addressLine1' || field === 'addressLine2' ? 'flex flex-col gap-1.5 sm:col-span-2' : 'flex flex-col gap-1.5'}>
                  <Label htmlFor={`return-${field}`}>
                    {t(`return.${field}`)}
                    {spec.required ? ' *' : t('offer.optional')}
                  </Label>
                  <Input
                    id={`return-${field}`}
                    name={field}
                    maxLength={spec.max}
                    required={spec.required}
                    aria-invalid={missing.has(field) || undefined}
                    autoComplete={AUTOCOMPLETE[field]}
                  />
                </div>
              ))}
            </fieldset>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="destructive" disabled={busy}>
              {busy ? <Loader2 aria-hidden="true" className="motion-safe:animate-spin" /> : null}
              {t('offer.declineOffer')}
            </Button>
            <Button type="button" variant="outline" disabled={busy} onClick={() => (setDeclining(false), setChoice(null), setError(null))}>
              {t('offer.back')}
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}

const AUTOCOMPLETE: Record<ReturnAddressField, string> = {
  name: 'name',
  addressLine1: 'address-line1',
  addressLine2: 'address-line2',
  city: 'address-level2',
  state: 'address-level1',
  postalCode: 'postal-code',
  country: 'country-name',
  phone: 'tel',
};
