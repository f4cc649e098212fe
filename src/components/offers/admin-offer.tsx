import type { AdminExchangeRequestDetail } from '#api/modules/requests/model.ts';
import { wholeMoney } from '#api/lib/money.ts';
import { Card, CardContent, CardHeader, CardTitle } from '#src/components/ui/card.tsx';
import { BookReturnButton } from './book-return-button.tsx';
import { ReturnShipmentForm } from './return-shipment-form.tsx';

const dayOf = (iso: string, locale: string) => new Date(iso).toLocaleDateString(locale, { day: 'numeric', month: 'long', year: 'numeric' });

/**
 * Admin: where a revised offer stands and, for a declined one the customer wants back, the return to
 * ship: booked with the carrier when one is configured (`carrier`), or shipped by hand and recorded
 * with the form, which stays as the fallback.
 */
export function AdminOfferCard({ request, locale, carrier }: { request: AdminExchangeRequestDetail; locale: string; carrier: boolean }) {
  const offer = request.offer;
  if (!offer) return null;
  const amount = wholeMoney(offer.amount, request.currency);
  const quoted = wholeMoney(offer.quotedAmount, request.currency);
  const address = offer.returnAddress;
  const returnDue = offer.choice === 'return' && !offer.returnShipment;
  return (
    <Card data-testid="admin-offer-card">
      <CardHeader>
        <CardTitle>{returnDue ? 'Return to ship' : 'Revised offer'}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        <p data-testid="admin-offer-status">
          {offer.status === 'pending'
            ? `Offer of ${amount} (quoted ${quoted}) waiting for the customer's answer until ${dayOf(offer.respondBy, locale)}; no answer accepts it.`
            : offer.status === 'accepted'
              ? `Offer of ${amount} (quoted ${quoted}) accepted${offer.decidedBy === 'deadline' ? ' automatically: no answer by its date' : ' by the customer'}.`
              : `Offer of ${amount} (quoted ${quoted}) declined: ${offer.choice === 'return' ? 'send the item back' : 'the item is recycled, no credit'}.`}
        </p>
        {address ? (
          <address className="not-italic whitespace-pre-line" data-testid="return-address">
            {[address.name, address.addressLine1, address.addressLine2, `${address.city}, ${address.state} ${address.postalCode}`, address.country, address.phone].filter(Boolean).join('\n')}
          </address>
        ) : null}
        {offer.returnShipment ? (
          <p data-testid="return-shipment">
            Sent back with {offer.returnShipment.carrierName}, tracking {offer.returnShipment.trackingNumber}, on {dayOf(offer.returnShipment.shippedAt, locale)}.
          </p>
        ) : null}
        {returnDue && carrier ? (
          <>
            <BookReturnButton requestId={request.id} />
            <h3 className="pt-2 font-semibold">Or ship it yourself, then record it</h3>
          </>
        ) : null}
        {returnDue ? <ReturnShipmentForm requestId={request.id} /> : null}
      </CardContent>
    </Card>
  );
}
