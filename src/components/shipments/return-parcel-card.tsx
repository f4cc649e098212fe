import { Download } from 'lucide-react';
import type { ReturnParcel } from '#api/modules/shipments/model.ts';
import type { Language } from '#api/modules/users/rules.ts';
import { Button } from '#src/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#src/components/ui/card.tsx';
import { translator } from '#src/i18n/t.ts';
import { trackingLabels, TrackingSteps } from './parcel-card.tsx';
import { ParcelFacts } from './parcel-facts.tsx';

/**
 * A declined offer's item on its way back, booked with the carrier: carrier, AWB, the latest step and
 * each step. The customer's request page (in `lang`) and the admin's (English, with the label to print) show it.
 */
export function ReturnParcelCard({ parcel, locale, labelHref, lang = 'en' }: { parcel: ReturnParcel; locale: string; labelHref?: string; lang?: Language }) {
  const t = translator(lang);
  const labels = trackingLabels(t, 'outbound');
  return (
    <Card data-testid="return-parcel-card">
      <CardHeader>
        <CardTitle>{t('returnParcel.title')}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <ParcelFacts parcel={parcel} labels={labels} waiting={t('returnParcel.waiting')} testIdPrefix="return-parcel" lang={lang} />
        {labelHref ? (
          <Button asChild size="sm" className="w-fit">
            <a href={labelHref} download>
              <Download aria-hidden="true" />
              {t('returnParcel.download')}
            </a>
          </Button>
        ) : null}
        <TrackingSteps id="return-tracking" steps={parcel.events} labels={labels} locale={locale} empty={t('returnParcel.noSteps')} testId="return-tracking-steps" lang={lang} />
      </CardContent>
    </Card>
  );
}
