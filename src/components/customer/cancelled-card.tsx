import type { CancelledRequest } from '#api/modules/requests/model.ts';
import { ConditionChip } from '#src/components/requests/status-badge.tsx';
import { Badge } from '#src/components/ui/badge.tsx';
import { Card } from '#src/components/ui/card.tsx';
import type { Language } from '#api/modules/users/rules.ts';
import { translator } from '#src/i18n/t.ts';
import { formatDate } from '#src/lib/requests.ts';

/** A request the customer cancelled, under the Cancelled filter of 'My Exchange Requests': what was kept of it, no link (the request is gone). */
export function CancelledCard({ request, locale, lang = 'en' }: { request: CancelledRequest; locale: string; lang?: Language }) {
  const t = translator(lang);
  return (
    <Card className="w-full gap-3 p-4" data-testid="cancelled-card">
      <div className="min-w-0">
        <h2 className="truncate font-semibold">{request.productName}</h2>
        <p className="text-sm text-muted-foreground">
          {request.brand} · {t('list.submittedOn')} <time dateTime={request.createdAt}>{formatDate(request.createdAt, locale)}</time>
        </p>
      </div>
      <div className="flex flex-wrap gap-1.5">
        <Badge variant="outline">{t('list.cancelledBadge')}</Badge>
        <ConditionChip condition={request.condition} lang={lang} />
      </div>
      <p className="text-sm text-muted-foreground">
        {t('list.cancelledOn')} <time dateTime={request.cancelledAt}>{formatDate(request.cancelledAt, locale)}</time>
      </p>
    </Card>
  );
}
