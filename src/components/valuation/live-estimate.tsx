'use client';

import { Ban, Sparkles } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { Quote } from '#api/modules/valuation/model.ts';
import { wholeMoney } from '#api/lib/money.ts';
import { useTexts } from '#src/i18n/language-provider.tsx';
import { serverText } from '#src/i18n/server-text.ts';
import { Alert, AlertDescription, AlertTitle } from '#src/components/ui/alert.tsx';
import { Skeleton } from '#src/components/ui/skeleton.tsx';
import { apiCall } from '#src/lib/api-client.ts';

/** How long typing must pause before the guide is asked. */
const DEBOUNCE_MS = 250;

/**
 * The guide's estimate as the customer fills in brand, product name and condition: the credit
 * (with a campaign bonus), "valued after inspection" when the guide has no match, or the reason
 * the shop does not take the item — reported to the form through `onRefusal`, which blocks submit.
 */
export function LiveEstimate({
  brand,
  productName,
  condition,
  onRefusal,
}: {
  brand: string;
  productName: string;
  condition: string;
  onRefusal: (reason: string | null) => void;
}) {
  const { lang, locale, t } = useTexts();
  const [quote, setQuote] = useState<Quote | null>(null);
  // asked and not yet answered: the box shows its shape instead of staying empty
  const [loading, setLoading] = useState(false);
  const complete = Boolean(brand.trim() && productName.trim() && condition);

  useEffect(() => {
    if (!complete) {
      setQuote(null);
      onRefusal(null);
      return;
    }
    const controller = new AbortController();
    setLoading(true);
    const timer = setTimeout(async () => {
      const params = new URLSearchParams({ brand: brand.trim(), productName: productName.trim(), condition });
      const result = await apiCall<Quote>(`/api/valuation/quote?${params}`, { signal: controller.signal });
      if (controller.signal.aborted) return;
      // an estimate that cannot be had is no reason to stop a submission: the server checks again
      const next = result.ok ? result.data : null;
      setLoading(false);
      setQuote(next);
      onRefusal(next && !next.eligible ? next.reason : null);
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // onRefusal is a state setter of the form: stable
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [brand, productName, condition, complete]);

  if (!complete || !quote) {
    return (
      <div aria-live="polite" data-testid="live-estimate">
        {complete && loading ? (
          <div className="flex flex-col gap-2 rounded-lg border p-4" data-testid="estimate-skeleton">
            <span className="sr-only">{t('estimate.looking')}</span>
            <Skeleton className="h-4 w-48" />
            <Skeleton className="h-3 w-64 max-w-full" />
          </div>
        ) : null}
      </div>
    );
  }
  return (
    <div aria-live="polite" data-testid="live-estimate">
      {!quote.eligible ? (
        <Alert variant="destructive">
          <Ban aria-hidden="true" />
          <AlertDescription>{serverText(lang, quote.reason)}</AlertDescription>
        </Alert>
      ) : quote.estimate === null ? (
        <Alert variant="info">
          <Sparkles aria-hidden="true" />
          <AlertDescription>{t('estimate.noMatch')}</AlertDescription>
        </Alert>
      ) : (
        <Alert variant="success">
          <Sparkles aria-hidden="true" />
          <AlertTitle>
            {t('estimate.credit', { amount: wholeMoney(quote.estimate, quote.currency, locale) })}
            {quote.bonus ? <span className="font-normal"> {t('estimate.bonus', { amount: wholeMoney(quote.bonus, quote.currency, locale) })}</span> : null}
          </AlertTitle>
          <AlertDescription>
            {quote.match ? `${quote.match.name}, ` : ''}
            {t('estimate.afterInspection')}
          </AlertDescription>
        </Alert>
      )}
    </div>
  );
}
