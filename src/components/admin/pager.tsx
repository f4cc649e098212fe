import { ChevronFirst, ChevronLast, ChevronLeft, ChevronRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'waku';
import { Button } from '#src/components/ui/button.tsx';
import { adminHref, type AdminView } from './admin-url.ts';

function PageLink({ view, page, label, disabled, children }: { view: AdminView; page: number; label: string; disabled: boolean; children: ReactNode }) {
  if (disabled) {
    return (
      <Button type="button" variant="outline" size="icon" disabled aria-label={label}>
        {children}
      </Button>
    );
  }
  return (
    <Button asChild variant="outline" size="icon">
      <Link to={adminHref({ ...view, page })} aria-label={label}>
        {children}
      </Link>
    </Button>
  );
}

/** "Showing x-y of n", first/previous/next/last as links, and an optional page-size control. */
export function Pager({ view, total, noun, children }: { view: AdminView; total: number; noun: string; children?: ReactNode }) {
  const pages = Math.max(1, Math.ceil(total / view.pageSize));
  const page = Math.min(view.page, pages);
  const from = total === 0 ? 0 : (page - 1) * view.pageSize + 1;
  const to = Math.min(total, page * view.pageSize);
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 pt-3 text-sm text-muted-foreground">
      <p aria-live="polite">
        Showing {from}-{to} of {total} {total === 1 ? noun.replace(/s$/, '') : noun}
      </p>
      <div className="flex flex-wrap items-center gap-3">
        {children}
        <nav aria-label="Pages" className="flex items-center gap-1">
          <PageLink view={view} page={1} label="First page" disabled={page <= 1}>
            <ChevronFirst aria-hidden="true" />
          </PageLink>
          <PageLink view={view} page={page - 1} label="Previous page" disabled={page <= 1}>
            <ChevronLeft aria-hidden="true" />
          </PageLink>
          <span className="px-2 whitespace-nowrap">
            Page {page} of {pages}
          </span>
          <PageLink view={view} page={page + 1} label="Next page" disabled={page >= pages}>
            <ChevronRight aria-hidden="true" />
          </PageLink>
          <PageLink view={view} page={pages} label="Last page" disabled={page >= pages}>
            <ChevronLast aria-hidden="true" />
          </PageLink>
        </nav>
      </div>
    </div>
  );
}
