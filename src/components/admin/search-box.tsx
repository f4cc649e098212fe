'use client';

import { Search } from 'lucide-react';
import { useEffect, useRef, useState, useTransition, type FormEvent } from 'react';
import { useRouter } from 'waku';
import { Input } from '#src/components/ui/input.tsx';
import { Spinner } from '#src/components/ui/spinner.tsx';
import { adminHref, parseAdminView, type AdminView } from './admin-url.ts';
import { useTypedBeforeHydration } from '#src/lib/use-typed-before-hydration.ts';

/**
 * A search box bound to the URL's `q`: typing waits a moment, then the server renders the matching
 * page. Without JavaScript it is a plain GET form.
 */
export function SearchBox({ view, placeholder }: { view: AdminView; placeholder: string }) {
  const router = useRouter();
  const [value, setValue] = useState(view.q);
  const [pending, startTransition] = useTransition();
  const applied = useRef(view.q);
  const form = useRef<HTMLFormElement>(null);
  useTypedBeforeHydration(form, (name, typed) => name === 'q' && setValue(typed));

  const apply = (q: string) => {
    const trimmed = q.trim();
    if (trimmed === applied.current) return;
    applied.current = trimmed;
    // the tab and page size as the address bar has them now (props may trail a navigation)
    const current = parseAdminView(window.location.search);
    startTransition(async () => {
      await router.replace(adminHref({ tab: current.tab, q: trimmed, pageSize: current.pageSize, sort: current.sort, order: current.order, flagged: current.flagged }));
    });
  };

  // the URL changed from elsewhere (back button, a link): show its search
  useEffect(() => {
    if (view.q !== applied.current) {
      applied.current = view.q;
      setValue(view.q);
    }
  }, [view.q]);

  useEffect(() => {
    const timer = setTimeout(() => apply(value), 300);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply(value);
  };

  return (
    <form ref={form} role="search" action="/admin" method="get" onSubmit={submit} className="relative w-full sm:max-w-md">
      {view.tab ? <input type="hidden" name="tab" value={view.tab} /> : null}
      {view.flagged ? <input type="hidden" name="flagged" value="1" /> : null}
      <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
      <Input
        type="search"
        name="q"
        value={value}
        onChange={(event) => setValue(event.target.value)}
        placeholder={placeholder}
        aria-label={placeholder}
        maxLength={200}
        className="pr-9 pl-9"
      />
      {pending ? <Spinner size="sm" label="Searching" className="absolute top-1/2 right-3 -translate-y-1/2 text-muted-foreground" /> : null}
    </form>
  );
}
