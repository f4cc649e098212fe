import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { Router } from 'waku/router/client';

/**
 * Waku's own client entry, but hydration runs as a transition: React then hydrates in slices of a
 * few milliseconds and lets the browser handle input between them, where a default-priority
 * hydration of a long admin table or a chart is one task of 100-300 ms on a phone's CPU. What the
 * server rendered is on screen all the while; a click on a part not yet hydrated makes React
 * hydrate that part first.
 */
const root = (
  <StrictMode>
    <Router />
  </StrictMode>
);

if ((globalThis as { __WAKU_HYDRATE__?: boolean }).__WAKU_HYDRATE__) {
  startTransition(() => {
    hydrateRoot(document, root);
  });
} else {
  createRoot(document).render(root);
}
