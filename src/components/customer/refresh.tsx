'use client';

import { atom, useAtomValue, useSetAtom } from 'jotai';
import { RefreshCw } from 'lucide-react';
import { useCallback, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { useRouter } from 'waku';
import { Button } from '#src/components/ui/button.tsx';
import { Progress } from '#src/components/ui/progress.tsx';
import { useTexts } from '#src/i18n/language-provider.tsx';
import { cn } from '#src/lib/cn.ts';

type Path = Parameters<ReturnType<typeof useRouter>['replace']>[0];

/** True while the page's server components are being fetched again. */
export const refreshingAtom = atom(false);

/**
 * Re-renders the current page's server components (fresh data) without moving the scroll
 * position; the refresh bar and the skeletons show meanwhile. Use it after a change, too.
 */
export function useRefresh(): () => Promise<void> {
  const router = useRouter();
  const setRefreshing = useSetAtom(refreshingAtom);
  return useCallback(async () => {
    // Commit the bar and skeletons now: the router's own update waits (suspended) for the new payload,
    // and anything batched with it would wait too.
    flushSync(() => setRefreshing(true));
    try {
      await router.replace(`${window.location.pathname}${window.location.search}` as Path, { scroll: false });
    } catch (error) {
      console.error('refresh failed', error);
    } finally {
      setRefreshing(false);
    }
  }, [router, setRefreshing]);
}

/** A refresh button: text (`label`), or an icon only when `iconOnly` (labelled by `label`). */
export function RefreshButton({ label = 'Refresh', iconOnly = false, className }: { label?: string; iconOnly?: boolean; className?: string }) {
  const refresh = useRefresh();
  const refreshing = useAtomValue(refreshingAtom);
  return (
    <Button
      type="button"
      variant="outline"
      size={iconOnly ? 'icon' : 'default'}
      aria-label={iconOnly ? label : undefined}
      disabled={refreshing}
      onClick={() => void refresh()}
      className={className}
    >
      <RefreshCw aria-hidden="true" className={cn(refreshing && 'motion-safe:animate-spin')} />
      {iconOnly ? null : label}
    </Button>
  );
}

/** The thin bar under the page title: indeterminate while refreshing, empty space otherwise. */
export function RefreshBar({ className }: { className?: string }) {
  const refreshing = useAtomValue(refreshingAtom);
  const { t } = useTexts();
  return <div className={cn('h-1', className)}>{refreshing ? <Progress className="h-1" aria-label={t('refresh.refreshing')} /> : null}</div>;
}

/** Shows `skeleton` instead of `children` while the page refreshes. */
export function WhileRefreshing({ skeleton, children }: { skeleton: ReactNode; children: ReactNode }) {
  const refreshing = useAtomValue(refreshingAtom);
  const { t } = useTexts();
  return refreshing ? (
    <div aria-busy="true" aria-live="polite">
      <span className="sr-only">{t('refresh.loading')}</span>
      {skeleton}
    </div>
  ) : (
    <>{children}</>
  );
}
