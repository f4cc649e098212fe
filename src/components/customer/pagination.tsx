import { ChevronFirst, ChevronLast, ChevronLeft, ChevronRight } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { Link } from 'waku';
import { cn } from '#src/lib/cn.ts';
import { buttonVariants } from '#src/components/ui/button.tsx';
import { translator, type Translate } from '#src/i18n/t.ts';

type To = ComponentProps<typeof Link>['to'];

/** Pages as links (first, previous, a window of numbers, next, last); `href(n)` gives page n's URL; `t` the page's texts (English by default). */
export function Pagination({ page, pages, href, t = translator('en') }: { page: number; pages: number; href: (page: number) => string; t?: Translate }) {
  if (pages <= 1) return null;
  const from = Math.max(1, Math.min(page - 2, pages - 4));
  const numbers = Array.from({ length: Math.min(5, pages) }, (_, i) => from + i);
  const edge = (target: number, label: string, icon: ReactNode, disabled: boolean) =>
    disabled ? (
      <span aria-disabled="true" className={cn(buttonVariants({ variant: 'outline', size: 'icon' }), 'opacity-50')}>
        {icon}
        <span className="sr-only">{label}</span>
      </span>
    ) : (
      <Link to={href(target) as To} aria-label={label} className={buttonVariants({ variant: 'outline', size: 'icon' })}>
        {icon}
      </Link>
    );
  return (
    <nav aria-label={t('pages.label')} className="flex justify-center">
      <ul className="flex flex-wrap items-center gap-1">
        <li>{edge(1, t('pages.first'), <ChevronFirst aria-hidden="true" />, page === 1)}</li>
        <li>{edge(page - 1, t('pages.previous'), <ChevronLeft aria-hidden="true" />, page === 1)}</li>
        {numbers.map((n) => (
          <li key={n}>
            <Link
              to={href(n) as To}
              aria-label={t('pages.number', { page: n })}
              aria-current={n === page ? 'page' : undefined}
              className={buttonVariants({ variant: n === page ? 'default' : 'ghost', size: 'icon' })}
            >
              {n}
            </Link>
          </li>
        ))}
        <li>{edge(page + 1, t('pages.next'), <ChevronRight aria-hidden="true" />, page === pages)}</li>
        <li>{edge(pages, t('pages.last'), <ChevronLast aria-hidden="true" />, page === pages)}</li>
      </ul>
    </nav>
  );
}
