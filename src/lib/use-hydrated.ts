'use client';

import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False in the server's HTML and until React has taken over the page; true afterwards. A control
 * whose handler lives in JavaScript stays disabled until then, so a click before the page is ready
 * is not lost (or, for a form, sent the browser's way instead of ours).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
