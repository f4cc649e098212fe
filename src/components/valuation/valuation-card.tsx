import { Scale } from 'lucide-react';
import type { ImageRef, StoredQuoteShape } from './types.ts';
import { AFTER_INSPECTION, campaignBonusName, wholeMoney } from '#api/modules/valuation/rules.ts';
import { ImageGallery } from '#src/components/requests/image-gallery.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#src/components/ui/card.tsx';

export interface ValuationFacts {
  productName: string;
  currency: string;
  creditAmount: number;
  quote: StoredQuoteShape | null;
  creditReason: string | null;
  creditBreakdown: { base: number; bonus: number; campaignName: string | null } | null;
  inspectionImages: ImageRef[];
}

/**
 * The valuation of a request on both detail pages: the quote the customer saw at submission, the
 * credit as base + bonus, and, for a credit below the quote, the reason with the inspection photos.
 * Nothing when there was no quote and no credit yet.
 */
export function ValuationCard({ request }: { request: ValuationFacts }) {
  const { quote, creditBreakdown: credit, currency } = request;
  if (!quote && !credit) return null;
  return (
    <Card data-testid="valuation-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Scale className="size-4" aria-hidden="true" />
          Valuation
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
          <dt className="text-muted-foreground">Quote at submission</dt>
          <dd data-testid="quote-at-submission">
            {quote ? (
              <>
                {wholeMoney(quote.estimate, quote.currency)}
                {quote.bonus > 0 ? ` + ${wholeMoney(quote.bonus, quote.currency)} bonus` : ''}
                <span className="text-muted-foreground"> ({AFTER_INSPECTION})</span>
              </>
            ) : (
              'No quote: valued after inspection'
            )}
          </dd>
          {credit ? (
            <>
              <dt className="text-muted-foreground">Credit</dt>
              <dd data-testid="credit-breakdown">
                {wholeMoney(request.creditAmount, currency)}
                {credit.bonus > 0 ? ` (${wholeMoney(credit.base, currency)} + ${wholeMoney(credit.bonus, currency)} ${campaignBonusName(credit.campaignName)})` : ''}
              </dd>
            </>
          ) : null}
        </dl>
        {request.creditReason ? (
          <section aria-labelledby="credit-reason-title" className="flex flex-col gap-2 rounded-lg border bg-muted/50 p-3">
            <h3 id="credit-reason-title" className="font-semibold">Why the credit is below the quote</h3>
            <p className="break-words whitespace-pre-line" data-testid="credit-reason">{request.creditReason}</p>
            {request.inspectionImages.length > 0 ? <ImageGallery images={request.inspectionImages} productName={`${request.productName} inspection`} /> : null}
          </section>
        ) : null}
      </CardContent>
    </Card>
  );
}
