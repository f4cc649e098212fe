import { HandCoins } from 'lucide-react';
import type { ImageRef, Offer } from '#api/modules/requests/model.ts';
import { wholeMoney } from '#api/lib/money.ts';
import { ImageGallery } from '#src/components/requests/image-gallery.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#src/components/ui/card.tsx';
import type { Language } from '#api/modules/users/rules.ts';
import { translator } from '#src/i18n/t.ts';
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
export function OfferCard({
  request,
  locale,
  timeZone,
  viewer = 'customer',
  lang = 'en',
}: {
  request: OfferFacts;
  locale: string;
  timeZone: string;
  viewer?: 'customer' | 'admin';
  lang?: Language;
}) {
  const { offer, currency } = request;
  if (!offer) return null;
  const t = translator(lang);
  const amount = wholeMoney(offer.amount, currency, locale);
  const respondBy = dayOf(offer.respondBy, locale, timeZone);
  const decidedOn = offer.decidedAt ? dayOf(offer.decidedAt, locale, timeZone) : '';
  return (
    <Card data-testid="offer-card" className={offer.status === 'pending' ? 'border-primary' : undefined}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <HandCoins className="size-4" aria-hidden="true" />
          {t(offer.status === 'pending' ? 'offer.title.pending' : 'offer.title')}
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 text-sm">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
          <dt className="text-muted-foreground">{t('offer.quoted')}</dt>
          <dd data-testid="offer-quoted">{wholeMoney(offer.quotedAmount, currency, locale)}</dd>
          <dt className="text-muted-foreground">{t('offer.amount')}</dt>
          <dd data-testid="offer-amount" className="font-semibold">{amount}</dd>
          {offer.reason ? (
            <>
              <dt className="text-muted-foreground">{t('offer.reason')}</dt>
              <dd data-testid="offer-reason" className="break-words whitespace-pre-line">{offer.reason}</dd>
            </>
          ) : null}
        </dl>
        {request.inspectionImages.length > 0 ? (
          <section aria-labelledby="offer-photos-title" className="flex flex-col gap-2">
            <h3 id="offer-photos-title" className="font-semibold">{t('offer.photos')}</h3>
            <ImageGallery images={request.inspectionImages} productName={t('offer.photosAlt', { product: request.productName })} lang={lang} />
          </section>
        ) : null}
        <p data-testid="offer-status" role="status">
          {offer.status === 'pending'
            ? t('offer.pending', { date: respondBy, amount })
            : offer.status === 'accepted'
              ? offer.decidedBy === 'deadline'
                ? t('offer.autoAccepted', { date: decidedOn, respondBy })
                : t('offer.accepted', { date: decidedOn })
              : offer.choice === 'return'
                ? offer.returnShipment
                  ? t('offer.returned', { carrier: offer.returnShipment.carrierName, number: offer.returnShipment.trackingNumber })
                  : t('offer.toReturn')
                : t('offer.recycled')}
        </p>
        {offer.status === 'pending' && viewer === 'customer' ? <OfferAnswer requestId={request.id} amount={amount} /> : null}
      </CardContent>
    </Card>
  );
}
