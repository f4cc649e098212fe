import { Download } from 'lucide-react';
import type { ReturnParcel } from '#api/modules/shipments/model.ts';
import { RETURN_TRACKING_LABELS } from '#api/modules/shipments/rules.ts';
import { Button } from '#src/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#src/components/ui/card.tsx';
import { TrackingSteps } from './parcel-card.tsx';

/**
 * A declined offer's item on its way back, booked with the carrier: carrier, AWB, the latest step and
 * each step. The customer's request page and the admin's (which adds the label to print) show it.
 */
export function ReturnParcelCard({ parcel, locale, labelHref }: { parcel: ReturnParcel; locale: string; labelHref?: string }) {
  return (
    <Card data-testid="return-parcel-card">
      <CardHeader>
        <CardTitle>Return shipment</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted-foreground">Carrier</dt>
          <dd data-testid="return-parcel-carrier">{parcel.carrier}</dd>
          <dt className="text-muted-foreground">Tracking number</dt>
          <dd className="font-mono break-all" data-testid="return-parcel-awb">{parcel.trackingNumber}</dd>
          <dt className="text-muted-foreground">Status</dt>
          <dd data-testid="return-parcel-status">{parcel.status ? RETURN_TRACKING_LABELS[parcel.status] : 'Waiting for the courier to collect it'}</dd>
        </dl>
        {labelHref ? (
          <Button asChild size="sm" className="w-fit">
            <a href={labelHref} download>
              <Download aria-hidden="true" />
              Download return label (PDF)
            </a>
          </Button>
        ) : null}
        <TrackingSteps id="return-tracking" steps={parcel.events} labels={RETURN_TRACKING_LABELS} locale={locale} empty="No tracking steps yet: the courier collects it from the warehouse." testId="return-tracking-steps" />
      </CardContent>
    </Card>
  );
}
