import { HandCoins } from 'lucide-react';
import type { ImageRef, Offer } from '#api/modules/requests/model.ts';
import { wholeMoney } from '#api/lib/money.ts';
import { ImageGallery } from '#src/components/requests/image-gallery.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#src/components/ui/card.tsx';
import { OfferAnswer } from './offer-answer.tsx';

interface OfferFacts {
  id: string;
  productName: string;
  currency: string;
  offer: Offer | null;
  inspectionImages: ImageRef[];
}

const dayOf = (iso: string, locale: string, timeZone: string) => new Date(iso).toLocaleDateString(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone });

/**
 * A revised offer on the customer's request page: the quote and the offer, the reason, the
 * inspection photos, the answer date; Accept / Decline while it waits, what was decided after.
 */
export function OfferCard({ request, locale, timeZone, viewer = 'customer' }: { request: OfferFacts; locale: string; timeZone: string; viewer?: 'customer' | 'admin' }) {
  const { offer, currency } = request;
  if (!offer) return null;
  const amount = wholeMoney(offer.amount, currency);
  const respondBy = dayOf(offer.respondBy, locale, timeZone);
  return (
    <Card data-testid="offer-card" className={offer.status === 'pending' ? 'border-primary' : undefined}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <HandCoins className="size-4" aria-hidden="true" />
          {offer.status === 'pending' ? 'Our offer for your item' : 'Revised offer'}
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 text-sm">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
          <dt className="text-muted-foreground">Quoted at submission</dt>
          <dd data-testid="offer-quoted">{wholeMoney(offer.quotedAmount, currency)}</dd>
          <dt className="text-muted-foreground">Offer after inspection</dt>
          <dd data-testid="offer-amount" className="font-semibold">{amount}</dd>
          {offer.reason ? (
            <>
              <dt className="text-muted-foreground">Why it is lower</dt>
              <dd data-testid="offer-reason" className="break-words whitespace-pre-line">{offer.reason}</dd>
            </>
          ) : null}
        </dl>
        {request.inspectionImages.length > 0 ? (
          <section aria-labelledby="offer-photos-title" className="flex flex-col gap-2">
            <h3 id="offer-photos-title" className="font-semibold">Inspection photos</h3>
            <ImageGallery images={request.inspectionImages} productName={`${request.productName}, on inspection`} />
          </section>
        ) : null}
        <p data-testid="offer-status" role="status">
          {offer.status === 'pending'
            ? `Please answer by ${respondBy}. With no answer by then, the offer is accepted and ${amount} is credited to your account.`
            : offer.status === 'accepted'
              ? offer.decidedBy === 'deadline'
                ? `Accepted automatically on ${dayOf(offer.decidedAt!, locale, timeZone)}: no answer came by ${respondBy}.`
                : `Accepted on ${dayOf(offer.decidedAt!, locale, timeZone)}.`
              : offer.choice === 'return'
                ? offer.returnShipment
                  ? `Declined. Sent back with ${offer.returnShipment.carrierName}, tracking number ${offer.returnShipment.trackingNumber}.`
                  : 'Declined. The item will be sent back to the address given.'
                : 'Declined. The item is recycled, with no credit.'}
        </p>
        {offer.status === 'pending' && viewer === 'customer' ? <OfferAnswer requestId={request.id} amount={amount} /> : null}
      </CardContent>
    </Card>
  );
}
