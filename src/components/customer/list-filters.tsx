'use client';

import { Search } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useRouter } from 'waku';
import { Input } from '#src/components/ui/input.tsx';
import { NativeSelect } from '#src/components/ui/select.tsx';
import { CANCELLED_VIEW, listHref, STATUS_FILTERS, statusBadge } from '#src/lib/requests.ts';
import { useTypedBeforeHydration } from '#src/lib/use-typed-before-hydration.ts';
import { useTexts } from '#src/i18n/language-provider.tsx';

type Path = Parameters<ReturnType<typeof useRouter>['push']>[0];

/**
 * The search and status filter of /exchange. Both live in the URL (a reload or a shared link
 * shows the same view); a change starts again at page 1. Without JavaScript it is a GET form.
 */
export function ListFilters({ q, status }: { q: string; status: string }) {
  const router = useRouter();
  const { lang, t } = useTexts();
  const [search, setSearch] = useState(q);
  const pushed = useRef(q);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const form = useRef<HTMLFormElement>(null);
  // typed or picked before the page was live: the search stays in the field, a status is applied
  useTypedBeforeHydration(form, (name, value) => {
    if (name === 'q') setSearch(value);
    if (name === 'status') go({ q: form.current?.q?.value ?? q, status: value });
  });

  // Back/forward (or a link) changed the URL: show its search.
  useEffect(() => {
    if (q !== pushed.current) {
      pushed.current = q;
      setSearch(q);
    }
  }, [q]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const go = (next: { q: string; status: string }) => {
    clearTimeout(timer.current);
    pushed.current = next.q;
    router.push(listHref({ q: next.q.trim(), status: next.status, page: 1 }) as Path, { scroll: false });
  };

  return (
    <form
      ref={form}
      method="get"
      action="/exchange"
      role="search"
      className="flex flex-col gap-3 sm:flex-row"
      onSubmit={(event) => {
        event.preventDefault();
        go({ q: search, status });
      }}
    >
      <div className="relative flex-1">
        <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
        <Input
          type="search"
          name="q"
          value={search}
          maxLength={200}
          onChange={(event) => {
            const value = event.target.value;
            setSearch(value);
            clearTimeout(timer.current);
            timer.current = setTimeout(() => go({ q: value, status }), 350);
          }}
          placeholder={t('list.search')}
          aria-label={t('list.search')}
          className="pl-9"
        />
      </div>
      <NativeSelect
        name="status"
        value={status === CANCELLED_VIEW ? '' : status}
        aria-label={t('list.filter')}
        wrapperClassName="sm:w-48"
        onChange={(event) => go({ q: search, status: event.target.value })}
      >
        {STATUS_FILTERS.map((filter) => (
          <option key={filter.value} value={filter.value}>
            {filter.value ? statusBadge(filter.value, lang).label : t('list.allStatuses')}
          </option>
        ))}
      </NativeSelect>
    </form>
  );
}
