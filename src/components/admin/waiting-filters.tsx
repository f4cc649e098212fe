import { Link } from 'waku';
import type { WaitingCounts } from '#api/modules/requests/model.ts';
import { WAITING_FILTERS, type WaitingFilter } from '#api/modules/requests/rules.ts';
import { adminHref, type AdminView } from './admin-url.ts';

const COUNT_OF: Record<WaitingFilter, keyof WaitingCounts> = { offers: 'offersWaiting', returns: 'returnsToShip' };

/** The queue's "waiting" filters beside the tabs (issue 24): revised offers waiting for the customer, declined offers' items to send back. */
export function WaitingFilters({ view, counts }: { view: AdminView; counts: WaitingCounts | null }) {
  return (
    <nav aria-label="Waiting" className="flex flex-wrap gap-3 text-sm">
      {(Object.keys(WAITING_FILTERS) as WaitingFilter[]).map((filter) => {
        const current = view.waiting === filter;
        return (
          <Link
            key={filter}
            to={adminHref(current ? { tab: 0 } : { tab: 0, waiting: filter })}
            aria-current={current ? 'page' : undefined}
            className={current ? 'font-semibold text-foreground underline underline-offset-4' : 'text-primary underline-offset-4 hover:underline'}
            data-testid={`waiting-${filter}`}
          >
            {WAITING_FILTERS[filter]}
            {counts ? ` (${counts[COUNT_OF[filter]]})` : ''}
          </Link>
        );
      })}
    </nav>
  );
}
