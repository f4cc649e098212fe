import { Download, Printer } from 'lucide-react';
import type { Shipment, TrackingStep } from '#api/modules/shipments/model.ts';
import { TRACKING_STATUSES, type TrackingStatus } from '#api/modules/shipments/rules.ts';
import type { Language } from '#api/modules/users/rules.ts';
import { Button } from '#src/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#src/components/ui/card.tsx';
import { translator, type Translate } from '#src/i18n/t.ts';
import { formatDateTime } from '#src/lib/requests.ts';
import { ParcelFacts } from './parcel-facts.tsx';

/** Each tracking step's name in `t`'s language: a prepaid label's ('tracking.*') or a return's ('returnTracking.*'). */
export function trackingLabels(t: Translate, direction: 'inbound' | 'outbound'): Record<TrackingStatus, string> {
  return Object.fromEntries(TRACKING_STATUSES.map((status) => [status, t(direction === 'outbound' ? `returnTracking.${status}` : `tracking.${status}`)])) as Record<TrackingStatus, string>;
}

/** The prepaid label on a request page: carrier, AWB, the PDF, the pickup address and each tracking step (in `lang`; English on the admin's). */
export function ParcelCard({ shipment, requestId, locale, lang = 'en' }: { shipment: Shipment; requestId: string; locale: string; lang?: Language }) {
  const t = translator(lang);
  const labels = trackingLabels(t, 'inbound');
  const pickup = shipment.pickup;
  return (
    <Card data-testid="parcel-card">
      <CardHeader>
        <CardTitle>{t('parcel.title')}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <ParcelFacts parcel={shipment} labels={labels} waiting={t('parcel.waiting')} testIdPrefix="parcel" lang={lang}>
          <dt className="text-muted-foreground">{t('parcel.pickup')}</dt>
          <dd className="break-words">
            {[pickup.name, pickup.addressLine1, pickup.addressLine2, `${pickup.city}, ${pickup.state} ${pickup.postalCode}`].filter(Boolean).join(', ')}
          </dd>
        </ParcelFacts>
        <div className="flex flex-wrap gap-2">
          <Button asChild size="sm">
            <a href={`/api/exchange/${encodeURIComponent(requestId)}/label`} download>
              <Download aria-hidden="true" />
              {t('parcel.download')}
            </a>
          </Button>
        </div>
        <TrackingSteps id="tracking" steps={shipment.events} labels={labels} locale={locale} empty={t('parcel.noSteps')} testId="tracking-steps" lang={lang} />
      </CardContent>
    </Card>
  );
}

/** A parcel's tracking steps, each once, in the order they happened (a label's or a return's words, in `lang`). */
export function TrackingSteps({
  id,
  steps,
  labels,
  locale,
  empty,
  testId,
  lang = 'en',
}: {
  id: string;
  steps: TrackingStep[];
  labels: Record<TrackingStatus, string>;
  locale: string;
  empty: string;
  testId: string;
  lang?: Language;
}) {
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-2">
      <h3 id={`${id}-title`} className="font-semibold">{translator(lang)('parcel.tracking')}</h3>
      {steps.length === 0 ? (
        <p className="text-sm text-muted-foreground">{empty}</p>
      ) : (
        <ol className="flex flex-col gap-2 text-sm" data-testid={testId}>
          {steps.map((step) => (
            <li key={`${step.status}-${step.at}`} className="flex flex-col">
              <span className="font-medium">{labels[step.status]}</span>
              <span className="text-xs text-muted-foreground">
                <time dateTime={step.at}>{formatDateTime(step.at, locale)}</time>
                {step.location ? ` · ${step.location}` : ''}
                {/* the courier's own words: English from an English courier, shown only to a reader of that language */}
                {step.description && lang === 'en' ? ` · ${step.description}` : ''}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** The packing slip alone, for customers who ship on their own. */
export function PackingSlipLink({ requestId, lang = 'en' }: { requestId: string; lang?: Language }) {
  return (
    <Button asChild size="sm" variant="ghost">
      <a href={`/api/exchange/${encodeURIComponent(requestId)}/packing-slip`} download>
        <Printer aria-hidden="true" />
        {translator(lang)('parcel.slip')}
      </a>
    </Button>
  );
}
