import { Download, Printer } from 'lucide-react';
import type { Shipment, TrackingStep } from '#api/modules/shipments/model.ts';
import { TRACKING_LABELS, type TrackingStatus } from '#api/modules/shipments/rules.ts';
import { Button } from '#src/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#src/components/ui/card.tsx';
import { formatDateTime } from '#src/lib/requests.ts';

/** The prepaid label on the customer's request page: carrier, AWB, the PDF, the pickup address and each tracking step. */
export function ParcelCard({ shipment, requestId, locale }: { shipment: Shipment; requestId: string; locale: string }) {
  const pickup = shipment.pickup;
  return (
    <Card data-testid="parcel-card">
      <CardHeader>
        <CardTitle>Prepaid Label</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted-foreground">Carrier</dt>
          <dd data-testid="parcel-carrier">{shipment.carrier}</dd>
          <dt className="text-muted-foreground">Tracking number</dt>
          <dd className="font-mono break-all" data-testid="parcel-awb">{shipment.trackingNumber}</dd>
          <dt className="text-muted-foreground">Status</dt>
          <dd data-testid="parcel-status">{shipment.status ? TRACKING_LABELS[shipment.status] : 'Waiting for pickup'}</dd>
          <dt className="text-muted-foreground">Pickup from</dt>
          <dd className="break-words">
            {[pickup.name, pickup.addressLine1, pickup.addressLine2, `${pickup.city}, ${pickup.state} ${pickup.postalCode}`].filter(Boolean).join(', ')}
          </dd>
        </dl>
        <div className="flex flex-wrap gap-2">
          <Button asChild size="sm">
            <a href={`/api/exchange/${encodeURIComponent(requestId)}/label`} download>
              <Download aria-hidden="true" />
              Download label (PDF)
            </a>
          </Button>
        </div>
        <TrackingSteps id="tracking" steps={shipment.events} labels={TRACKING_LABELS} locale={locale} empty="No tracking steps yet: print the label and hand the parcel to the courier." testId="tracking-steps" />
      </CardContent>
    </Card>
  );
}

/** A parcel's tracking steps, each once, in the order they happened (a label's or a return's words). */
export function TrackingSteps({ id, steps, labels, locale, empty, testId }: { id: string; steps: TrackingStep[]; labels: Record<TrackingStatus, string>; locale: string; empty: string; testId: string }) {
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-2">
      <h3 id={`${id}-title`} className="font-semibold">Tracking</h3>
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
                {step.description ? ` · ${step.description}` : ''}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** The packing slip alone, for customers who ship on their own. */
export function PackingSlipLink({ requestId }: { requestId: string }) {
  return (
    <Button asChild size="sm" variant="ghost">
      <a href={`/api/exchange/${encodeURIComponent(requestId)}/packing-slip`} download>
        <Printer aria-hidden="true" />
        Print packing slip
      </a>
    </Button>
  );
}
