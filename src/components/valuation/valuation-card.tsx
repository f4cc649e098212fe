import { Scale } from 'lucide-react';
import type { ImageRef, StoredQuoteShape } from './types.ts';
import { campaignBonusName, wholeMoney } from '#api/modules/valuation/rules.ts';
import { LANGUAGE_LOCALES, type Language } from '#api/modules/users/rules.ts';
import { translator } from '#src/i18n/t.ts';
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
export function ValuationCard({ request, lang = 'en' }: { request: ValuationFacts; lang?: Language }) {
  const { quote, creditBreakdown: credit, currency } = request;
  if (!quote && !credit) return null;
  const t = translator(lang);
  const money = (amount: number, code: string) => wholeMoney(amount, code, LANGUAGE_LOCALES[lang]);
  // 'Diwali bonus', but a campaign already named '… bonus' keeps its name (campaignBonusName's rule)
  const bonusName = (name: string | null) =>
    lang === 'en' ? campaignBonusName(name) : name && /\bbonus$/i.test(name.trim()) ? name.trim() : t('valuation.campaignBonus', { name: name?.trim() || t('valuation.campaign') });
  return (
    <Card data-testid="valuation-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Scale className="size-4" aria-hidden="true" />
          {t('valuation.title')}
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
          <dt className="text-muted-foreground">{t('valuation.quote')}</dt>
          <dd data-testid="quote-at-submission">
            {quote ? (
              <>
                {money(quote.estimate, quote.currency)}
                {quote.bonus > 0 ? ` ${t('estimate.bonus', { amount: money(quote.bonus, quote.currency) })}` : ''}
                <span className="text-muted-foreground"> ({t('estimate.afterInspection')})</span>
              </>
            ) : (
              t('valuation.noQuote')
            )}
          </dd>
          {credit ? (
            <>
              <dt className="text-muted-foreground">{t('valuation.credit')}</dt>
              <dd data-testid="credit-breakdown">
                {money(request.creditAmount, currency)}
                {credit.bonus > 0 ? ` (${money(credit.base, currency)} + ${money(credit.bonus, currency)} ${bonusName(credit.campaignName)})` : ''}
              </dd>
            </>
          ) : null}
        </dl>
        {request.creditReason ? (
          <section aria-labelledby="credit-reason-title" className="flex flex-col gap-2 rounded-lg border bg-muted/50 p-3">
            <h3 id="credit-reason-title" className="font-semibold">{t('valuation.reasonTitle')}</h3>
            <p className="break-words whitespace-pre-line" data-testid="credit-reason">{request.creditReason}</p>
            {request.inspectionImages.length > 0 ? <ImageGallery images={request.inspectionImages} productName={t('valuation.photosAlt', { product: request.productName })} lang={lang} /> : null}
          </section>
        ) : null}
      </CardContent>
    </Card>
  );
}
