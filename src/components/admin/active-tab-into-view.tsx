'use client';

import { useEffect } from 'react';

/** On a narrow screen the tab row scrolls sideways: bring the current tab into view. */
export function ActiveTabIntoView({ tab }: { tab: number }) {
  useEffect(() => {
    const list = document.querySelector<HTMLElement>('[data-admin-tabs]');
    const current = list?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!list || !current || list.scrollWidth <= list.clientWidth) return;
    list.scrollLeft = current.offsetLeft - (list.clientWidth - current.offsetWidth) / 2;
  }, [tab]);
  return null;
}
