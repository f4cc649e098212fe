import { Coins } from 'lucide-react';
import { Link } from 'waku';
import type { ExchangeRequest } from '#api/modules/requests/model.ts';
import { RequestThumbnail } from '#src/components/requests/request-thumbnail.tsx';
import { ConditionChip, StatusBadge, TransitChip } from '#src/components/requests/status-badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Card } from '#src/components/ui/card.tsx';
import { formatMoney } from '#api/lib/money.ts';
import { LANGUAGE_LOCALES, type Language } from '#api/modules/users/rules.ts';
import { translator } from '#src/i18n/t.ts';
import { formatDate } from '#src/lib/requests.ts';

/** A request in 'My Exchange Requests': credit banner, name, date, brand, chips, description (2 lines), View Details. */
export function ExchangeCard({ request, locale, lang = 'en' }: { request: ExchangeRequest; locale: string; lang?: Language }) {
  const credited = request.creditedAt !== null;
  const t = translator(lang);
  return (
    <Card className="w-full gap-0 overflow-hidden py-0" data-testid="exchange-card">
      {credited ? (
        <p className="flex items-center gap-2 bg-success px-4 py-1.5 text-sm font-medium text-success-foreground">
          <Coins className="size-4" aria-hidden="true" />
          {t('credit.inline', { amount: formatMoney(request.creditAmount, request.currency, LANGUAGE_LOCALES[lang]) })}
        </p>
      ) : null}
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="flex gap-3">
          <RequestThumbnail images={request.images} productName={request.productName} lang={lang} />
          <div className="min-w-0 flex-1">
            <h2 className="truncate font-semibold">{request.productName}</h2>
            <p className="text-sm text-muted-foreground">
              {request.brand} · <time dateTime={request.createdAt}>{formatDate(request.createdAt, locale)}</time>
            </p>
          </div>
        </div>
        <div className="flex flex-wrap gap-1.5">
          <StatusBadge status={request.status} lang={lang} />
          <ConditionChip condition={request.condition} lang={lang} />
          <TransitChip request={request} lang={lang} />
        </div>
        <p className="line-clamp-2 text-sm break-words text-muted-foreground">{request.description}</p>
        <Button asChild variant="outline" size="sm" className="mt-auto self-start">
          <Link to={`/exchange/${request.id}`} aria-label={t('dashboard.viewDetailsOf', { product: request.productName })}>
            {t('dashboard.viewDetails')}
          </Link>
        </Button>
      </div>
    </Card>
  );
}
