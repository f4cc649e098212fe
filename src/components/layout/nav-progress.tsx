'use client';

import { useEffect, useRef } from 'react';
import { useRouter } from 'waku';
import { useTexts } from '#src/i18n/language-provider.tsx';

/** A navigation that takes longer than this shows the bar; a quick one shows nothing. */
const SHOW_AFTER_MS = 300;

/** A click that the app's router (or the browser) turns into going to another page of this site. */
function navigatesAway(event: MouseEvent): boolean {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  const link = (event.target as Element | null)?.closest?.('a[href]');
  if (!(link instanceof HTMLAnchorElement) || link.target === '_blank' || link.hasAttribute('download')) return false;
  const url = new URL(link.href, window.location.href);
  return url.origin === window.location.origin && url.pathname + url.search !== window.location.pathname + window.location.search;
}

/** The bar itself, outside React: while the router waits for the next page, React cannot commit a render of the page it leaves. */
function showBar(label: string): HTMLElement {
  const bar = document.createElement('div');
  bar.setAttribute('role', 'progressbar');
  bar.setAttribute('aria-label', label);
  bar.className = 'fixed inset-x-0 top-0 z-50 h-0.5 overflow-hidden bg-primary/20';
  const fill = document.createElement('div');
  fill.className = 'nav-progress h-full origin-left bg-primary';
  bar.append(fill);
  document.body.append(bar);
  return bar;
}

/**
 * A thin bar at the top of the screen while a page takes a while to arrive: it appears 300 ms after
 * a link is followed (or Back is pressed) and goes when the new page is shown.
 */
export function NavProgress() {
  const { path, query } = useRouter();
  const { t } = useTexts();
  const label = useRef('');
  label.current = t('nav.loadingPage');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const bar = useRef<HTMLElement | null>(null);

  const hide = () => {
    clearTimeout(timer.current);
    bar.current?.remove();
    bar.current = null;
  };
  // the new page is shown: no bar
  useEffect(hide, [path, query]);

  useEffect(() => {
    const start = () => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => (bar.current ??= showBar(label.current)), SHOW_AFTER_MS);
    };
    const onClick = (event: MouseEvent) => navigatesAway(event) && start();
    document.addEventListener('click', onClick, true);
    window.addEventListener('popstate', start);
    // a page restored from the back-forward cache comes back as it was left, bar included
    window.addEventListener('pageshow', hide);
    return () => {
      window.removeEventListener('pageshow', hide);
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('popstate', start);
      clearTimeout(timer.current);
    };
  }, []);

  return null;
}
