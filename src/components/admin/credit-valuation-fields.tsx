'use client';

import { X } from 'lucide-react';
import { useId, useState } from 'react';
import type { CreditGuide, ImageRef, StoredQuoteShape } from '#src/components/valuation/types.ts';
import { bonusOf, creditReasonRequired, estimateOf, wholeMoney } from '#api/modules/valuation/rules.ts';

import { Button } from '#src/components/ui/button.tsx';
import { Label } from '#src/components/ui/label.tsx';
import { NativeSelect } from '#src/components/ui/select.tsx';
import { Textarea } from '#src/components/ui/textarea.tsx';
import { uploadImage } from '#src/lib/api-client.ts';
import { ADMIN_TEXT_LIMITS, CONDITION_OPTIONS } from '#api/modules/requests/rules.ts';
import { LengthHint, lengthHintShown } from '#src/components/ui/length-hint.tsx';
import { checkImageFile } from '#api/modules/images/rules.ts';
import { UPLOAD_FAILED } from '#src/lib/requests.ts';

const MAX_PHOTOS = 5;
/** The reason's label and limit, as the API says them when it refuses a longer one. */
const REASON = ADMIN_TEXT_LIMITS.reason;

/** The suggested credit for a confirmed condition: base × its multiplier; null without a guide entry. */
export function suggestedCredit(guide: CreditGuide, condition: string): number | null {
  if (!guide.match) return null;
  const percent = guide.multipliers.find((m) => m.condition === condition)?.percent ?? 100;
  return estimateOf(guide.match.baseValue, percent);
}

export interface CreditValuationState {
  reason: string;
  photos: ImageRef[];
}

/**
 * The Assign Credit dialog's valuation part: the condition confirmed on inspection (which sets the
 * suggested credit), the quote the customer saw, the bonus that will be added to the typed amount,
 * and below the quote a required reason with optional inspection photos.
 */
export function CreditValuationFields({
  guide,
  quote,
  currency,
  condition,
  amount,
  onCondition,
  value,
  onChange,
  reasonInvalid,
}: {
  guide: CreditGuide;
  quote: StoredQuoteShape | null;
  currency: string;
  condition: string;
  amount: number | null;
  onCondition: (condition: string, suggested: number | null) => void;
  value: CreditValuationState;
  onChange: (value: CreditValuationState) => void;
  reasonInvalid: boolean;
}) {
  const id = useId();
  const [uploading, setUploading] = useState(0);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const suggested = suggestedCredit(guide, condition);
  const bonus = amount !== null && amount > 0 ? bonusOf(guide.campaign, amount) : 0;
  const belowQuote = quote !== null && amount !== null && amount < quote.estimate;

  const addPhotos = async (files: FileList | null) => {
    setPhotoError(null);
    const picked = [...(files ?? [])].slice(0, MAX_PHOTOS - value.photos.length);
    const uploaded: ImageRef[] = [];
    for (const file of picked) {
      const problem = checkImageFile(file);
      if (problem) {
        setPhotoError(problem);
        continue;
      }
      setUploading((n) => n + 1);
      const result = await uploadImage(file, () => {}).result;
      setUploading((n) => n - 1);
      if (result.ok && result.data) uploaded.push(result.data);
      else setPhotoError(result.error ?? UPLOAD_FAILED);
    }
    onChange({ ...value, photos: [...value.photos, ...uploaded] });
  };

  return (
    <div className="flex flex-col gap-4" data-testid="credit-valuation">
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-condition`}>Condition on inspection</Label>
        <NativeSelect id={`${id}-condition`} value={condition} onChange={(e) => onCondition(e.target.value, suggestedCredit(guide, e.target.value))}>
          {CONDITION_OPTIONS.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </NativeSelect>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-lg border bg-muted/50 p-3 text-sm">
        <dt className="text-muted-foreground">Suggested credit</dt>
        <dd data-testid="suggested-credit">
          {suggested !== null && guide.match ? `${wholeMoney(suggested, currency)} (${guide.match.name})` : 'No guide entry for this item'}
        </dd>
        <dt className="text-muted-foreground">Quote the customer saw</dt>
        <dd data-testid="customer-quote">{quote ? wholeMoney(quote.estimate, quote.currency) + (quote.bonus > 0 ? ` + ${wholeMoney(quote.bonus, quote.currency)} bonus` : '') : 'None'}</dd>
        <dt className="text-muted-foreground">Bonus added</dt>
        <dd data-testid="bonus-added">
          {guide.campaign ? `${wholeMoney(bonus, currency)} (${guide.campaign.name})` : 'No campaign'}
          {amount !== null && amount > 0 ? `, total ${wholeMoney(amount + bonus, currency)}` : ''}
        </dd>
      </dl>
      {belowQuote ? (
        <>
          <div className="flex flex-col gap-2">
            <Label htmlFor={`${id}-reason`}>{REASON.label}</Label>
            <Textarea
              id={`${id}-reason`}
              data-credit-reason
              rows={2}
              maxLength={REASON.max}
              value={value.reason}
              onChange={(e) => onChange({ ...value, reason: e.target.value })}
              aria-invalid={reasonInvalid || undefined}
              aria-describedby={[reasonInvalid ? `${id}-reason-error` : '', lengthHintShown(value.reason.length, REASON.max) ? `${id}-reason-length` : ''].filter(Boolean).join(' ') || undefined}
              required
            />
            <LengthHint id={`${id}-reason-length`} label={REASON.label} length={value.reason.length} max={REASON.max} />
            {reasonInvalid && quote ? (
              <p id={`${id}-reason-error`} role="alert" className="text-sm font-medium text-destructive">
                {creditReasonRequired(quote.estimate, quote.currency)}
              </p>
            ) : null}
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor={`${id}-photos`}>Inspection photos (optional, up to {MAX_PHOTOS})</Label>
            <input
              id={`${id}-photos`}
              type="file"
              accept="image/*"
              multiple
              disabled={value.photos.length >= MAX_PHOTOS || uploading > 0}
              onChange={(e) => void addPhotos(e.target.files).then(() => (e.target.value = ''))}
              className="text-sm"
            />
            {uploading > 0 ? <p className="text-xs text-muted-foreground">Uploading…</p> : null}
            {photoError ? <p className="text-xs text-destructive">{photoError}</p> : null}
            {value.photos.length > 0 ? (
              <ul className="flex flex-wrap gap-2">
                {value.photos.map((photo) => (
                  <li key={photo.publicId} className="relative">
                    <img src={photo.url} alt="Inspection photo" className="size-16 rounded-md border object-cover" />
                    <Button
                      type="button"
                      size="icon"
                      variant="secondary"
                      className="absolute -top-2 -right-2 size-6 rounded-full"
                      aria-label="Remove photo"
                      onClick={() => onChange({ ...value, photos: value.photos.filter((p) => p.publicId !== photo.publicId) })}
                    >
                      <X aria-hidden="true" />
                    </Button>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        </>
      ) : null}
    </div>
  );
}
