'use client';

import { useEffect } from 'react';

/** Marks <html data-hydrated> once React has taken over: tests (and monitoring) can wait for it. */
export function HydrationMarker() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return null;
}
