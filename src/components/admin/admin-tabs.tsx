import { Link } from 'waku';
import type { RequestCounts } from '#api/modules/requests/model.ts';
import { cn } from '#src/lib/cn.ts';
import { ActiveTabIntoView } from './active-tab-into-view.tsx';
import { ADMIN_TABS, adminHref, type AdminView } from './admin-url.ts';

/**
 * The six tabs as links (`?tab=N`), so each one is a URL rendered on the server with its data.
 * Tabs 0-3 keep the search and show how many requests wait in each (the whole queue, not the
 * search's matches), hidden at zero. Below 768px the tabs wrap onto more lines instead of hiding.
 */
export function AdminTabs({ view, counts }: { view: AdminView; counts: RequestCounts | null }) {
  return (
    <nav aria-label="Admin sections">
      <ul data-admin-tabs className="relative flex w-fit max-w-full flex-wrap items-center gap-1 rounded-lg bg-muted p-1 text-muted-foreground md:flex-nowrap md:overflow-x-auto">
        {ADMIN_TABS.map((tab, index) => {
          const active = index === view.tab && !view.waiting;
          const count = 'count' in tab && counts ? counts[tab.count] : 0;
          return (
            <li key={tab.label} className="flex-none">
              <Link
                to={adminHref({ tab: index, q: index <= 3 && view.tab <= 3 ? view.q : '', flagged: index <= 3 && view.flagged })}
                title={count > 0 ? `${count} ${count === 1 ? 'request' : 'requests'} in this queue (whatever the search)` : undefined}
                aria-current={active ? 'page' : undefined}
                className={cn(
                  'inline-flex h-8 items-center justify-center gap-1.5 rounded-md px-3 text-sm font-medium whitespace-nowrap',
                  'transition-[color,background-color] outline-hidden hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring',
                  active && 'bg-card text-foreground shadow-sm',
                )}
              >
                {tab.label}
                {count > 0 ? (
                  <span
                    data-testid={`tab-count-${index}`}
                    className="inline-flex min-w-5 items-center justify-center rounded-full bg-primary px-1.5 text-xs leading-5 font-semibold text-primary-foreground"
                  >
                    <span className="sr-only">(</span>
                    {count}
                    <span className="sr-only">{count === 1 ? ' request)' : ' requests)'}</span>
                  </span>
                ) : null}
              </Link>
            </li>
          );
        })}
      </ul>
      <ActiveTabIntoView tab={view.tab} />
    </nav>
  );
}
