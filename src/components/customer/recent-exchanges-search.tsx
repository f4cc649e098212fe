'use client';

import { atom, useAtomValue, useSetAtom } from 'jotai';
import { Search } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Badge } from '#src/components/ui/badge.tsx';
import { Input } from '#src/components/ui/input.tsx';
import { useTexts } from '#src/i18n/language-provider.tsx';
import { DASHBOARD_RECENT, matchesDashboardSearch, requestCountLabel } from '#src/lib/requests.ts';

/** How many requests the dashboard search matches; null while no search is typed. */
const matchCountAtom = atom<number | null>(null);

/** The 'N Requests' chip: every request, or those the search matches while one is typed. */
export function RequestCountChip({ total }: { total: number }) {
  const matches = useAtomValue(matchCountAtom);
  const { lang } = useTexts();
  return (
    <Badge variant="secondary" data-testid="request-count">
      {requestCountLabel(matches ?? total, lang)}
    </Badge>
  );
}

export interface SearchableItem {
  id: string;
  productName: string;
  brand: string;
  status: string;
  /** the item as the server rendered it */
  node: ReactNode;
}

/**
 * The dashboard's search over the customer's requests (name, brand or status, case-insensitive).
 * With no search it shows the newest five and, past five, `viewAll`.
 */
export function RecentExchangesSearch({ items, viewAll }: { items: SearchableItem[]; viewAll: ReactNode }) {
  const { lang, t } = useTexts();
  const [search, setSearch] = useState('');
  const active = search.trim() !== '';
  const matching = active ? items.filter((item) => matchesDashboardSearch(item, search, lang)) : items;
  const shown = active ? matching : items.slice(0, DASHBOARD_RECENT);
  const setMatches = useSetAtom(matchCountAtom);
  useEffect(() => {
    setMatches(active ? matching.length : null);
    return () => setMatches(null);
  }, [active, matching.length, setMatches]);
  return (
    <div className="flex flex-col gap-4">
      <div className="relative">
        <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
        <Input
          type="search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder={t('dashboard.search')}
          aria-label={t('dashboard.searchLabel')}
          className="pl-9"
        />
      </div>
      {shown.length === 0 ? (
        <p className="py-6 text-center text-sm text-muted-foreground" role="status">
          {t('dashboard.noMatch')}
        </p>
      ) : (
        <ul className="flex flex-col divide-y" aria-label={t('dashboard.listLabel')}>
          {shown.map((item) => (
            <li key={item.id}>{item.node}</li>
          ))}
        </ul>
      )}
      {!active && items.length > DASHBOARD_RECENT ? viewAll : null}
    </div>
  );
}
