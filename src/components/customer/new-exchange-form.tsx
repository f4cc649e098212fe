'use client';

import { Loader2, Send } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { Link, useRouter } from 'waku';
import { Alert, AlertDescription } from '#src/components/ui/alert.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Input } from '#src/components/ui/input.tsx';
import { Label } from '#src/components/ui/label.tsx';
import { NativeSelect } from '#src/components/ui/select.tsx';
import { Textarea } from '#src/components/ui/textarea.tsx';
import { flash } from '#src/components/common/flash.tsx';
import { apiCall } from '#src/lib/api-client.ts';
import { CONDITION_OPTIONS, REQUEST_TEXT_LIMITS } from '#api/modules/requests/rules.ts';
import { useTexts } from '#src/i18n/language-provider.tsx';
import { serverText } from '#src/i18n/server-text.ts';
import { conditionText } from '#src/lib/requests.ts';
import { LengthHint } from '#src/components/ui/length-hint.tsx';
import { LiveEstimate } from '#src/components/valuation/live-estimate.tsx';
import { useTypedBeforeHydration } from '#src/lib/use-typed-before-hydration.ts';
import { ImagePicker, type PickedImage } from './image-picker.tsx';

type Field = 'productName' | 'brand' | 'condition' | 'description';
/** In the order they appear, so the first gap is the one focused. */
const FIELDS: Field[] = ['productName', 'brand', 'condition', 'description'];

function Required() {
  return (
    <span className="text-destructive" aria-hidden="true">
      *
    </span>
  );
}

/** The new request form: five fields, photos uploaded as they are picked, Cancel and Submit Request. */
export function NewExchangeForm() {
  const router = useRouter();
  const { lang, t } = useTexts();
  const [values, setValues] = useState<Record<Field, string>>({ productName: '', brand: '', condition: '', description: '' });
  const [images, setImages] = useState<PickedImage[]>([]);
  // The server's refusal, if any; the form's own messages follow `missing` and so clear as fields are fixed.
  const [serverError, setServerError] = useState<string | null>(null);
  const [missing, setMissing] = useState<Set<Field | 'images'>>(new Set());
  const [submitting, setSubmitting] = useState(false);
  /** the guide's reason the shop does not take this item: submitting is blocked while there is one */
  const [refusal, setRefusal] = useState<string | null>(null);
  const uploading = images.some((image) => !image.uploaded);
  const form = useRef<HTMLFormElement>(null);
  useTypedBeforeHydration(form, (name, value) => {
    if ((FIELDS as readonly string[]).includes(name)) setValues((v) => ({ ...v, [name]: value }));
  });

  const settle = (field: Field | 'images') =>
    setMissing((m) => {
      if (!m.has(field)) return m;
      const next = new Set(m);
      next.delete(field);
      return next;
    });
  const set = (field: Field) => (event: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: event.target.value }));
    settle(field);
    setServerError(null);
  };
  const invalid = (field: Field | 'images') => missing.has(field) || undefined;
  const messages = [
    ...(FIELDS.some((field) => missing.has(field)) ? [t('new.fillRequired')] : []),
    ...(missing.has('images') ? [t('new.needImage')] : []),
    ...(serverError ? [serverError] : []),
  ];

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const uploaded = images.flatMap((image) => (image.uploaded ? [image.uploaded] : []));
    // Every gap at once, the first one focused.
    const gaps: (Field | 'images')[] = [...FIELDS.filter((field) => !values[field].trim()), ...(uploaded.length === 0 ? (['images'] as const) : [])];
    setServerError(null);
    setMissing(new Set(gaps));
    if (gaps.length > 0) {
      const first = gaps[0]!;
      (first === 'images' ? document.getElementById('product-images') : document.getElementById(first))?.focus();
      return;
    }
    setSubmitting(true);
    const result = await apiCall<{ id: string }>('/api/exchange', {
      method: 'POST',
      body: {
        productName: values.productName.trim(),
        brand: values.brand.trim(),
        condition: values.condition,
        description: values.description.trim(),
        images: uploaded,
      },
    });
    if (result.ok && result.data) {
      flash(t('new.submitted'));
      router.push(`/exchange/${result.data.id}`);
      return;
    }
    setSubmitting(false);
    setServerError(serverText(lang, result.error) ?? t('new.submitFailed'));
  }

  return (
    <form ref={form} onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-5" aria-busy={submitting}>
      <div className="grid gap-5 sm:grid-cols-2">
        <div className="flex flex-col gap-2">
          <Label htmlFor="productName">
            {t('new.productName')} <Required />
          </Label>
          <Input id="productName" name="productName" value={values.productName} onChange={set('productName')} required aria-invalid={invalid('productName')} maxLength={REQUEST_TEXT_LIMITS.productName} autoComplete="off" placeholder={t('new.productNameHint')} />
          <FieldLength field="productName" length={values.productName.length} />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="brand">
            {t('new.brand')} <Required />
          </Label>
          <Input id="brand" name="brand" value={values.brand} onChange={set('brand')} required aria-invalid={invalid('brand')} maxLength={REQUEST_TEXT_LIMITS.brand} autoComplete="off" placeholder={t('new.brandHint')} />
          <FieldLength field="brand" length={values.brand.length} />
        </div>
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor="condition">
          {t('new.condition')} <Required />
        </Label>
        <NativeSelect id="condition" name="condition" value={values.condition} onChange={set('condition')} required aria-invalid={invalid('condition')}>
          <option value="" disabled>
            {t('new.selectCondition')}
          </option>
          {CONDITION_OPTIONS.map((condition) => (
            <option key={condition.value} value={condition.value}>
              {conditionText(condition.value, lang)}
            </option>
          ))}
        </NativeSelect>
      </div>
      <LiveEstimate brand={values.brand} productName={values.productName} condition={values.condition} onRefusal={setRefusal} />
      <div className="flex flex-col gap-2">
        <Label htmlFor="description">
          {t('new.description')} <Required />
        </Label>
        <Textarea id="description" name="description" rows={4} value={values.description} onChange={set('description')} required aria-invalid={invalid('description')} maxLength={REQUEST_TEXT_LIMITS.description} placeholder={t('new.descriptionHint')} />
        <FieldLength field="description" length={values.description.length} />
      </div>
      <ImagePicker
        images={images}
        onChange={(update) => {
          setImages(update);
          settle('images');
        }}
        disabled={submitting}
        invalid={missing.has('images')}
      />
      {messages.length > 0 ? (
        <Alert variant="destructive">
          <AlertDescription>
            {messages.map((message) => (
              <p key={message}>{message}</p>
            ))}
          </AlertDescription>
        </Alert>
      ) : null}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button asChild variant="outline">
          <Link to="/dashboard">{t('new.cancel')}</Link>
        </Button>
        <Button type="submit" disabled={submitting || uploading || refusal !== null}>
          {submitting ? <Loader2 aria-hidden="true" className="motion-safe:animate-spin" /> : <Send aria-hidden="true" />}
          {t('new.submit')}
        </Button>
      </div>
    </form>
  );
}

/** The length of a text field as it nears its limit, in the API's words at the limit. */
function FieldLength({ field, length }: { field: 'productName' | 'brand' | 'description'; length: number }) {
  const { lang, t } = useTexts();
  return <LengthHint id={`${field}-length`} label={t(`field.${field}`)} length={length} max={REQUEST_TEXT_LIMITS[field]} lang={lang} />;
}
