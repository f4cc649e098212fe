'use client';

import { useLayoutEffect, type RefObject } from 'react';

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
const TEXT_LIKE = /^(text|email|search|tel|url|number|password)$/;

function typedInto(element: Element): element is Field {
  if (element instanceof HTMLInputElement) return TEXT_LIKE.test(element.type) && element.value !== element.defaultValue;
  if (element instanceof HTMLTextAreaElement) return element.value !== element.defaultValue;
  if (element instanceof HTMLSelectElement) return Array.from(element.options).some((option) => option.selected !== option.defaultSelected);
  return false;
}

/**
 * What a person typed into a form before React took over the page (a slow phone can show the form
 * a second or more before its script runs). The browser shows it, but the component's state still
 * holds the server's empty value, and React's next render would write that back over the field.
 * Read once while the page hydrates, before that render, and handed to `keep` by field name.
 */
export function useTypedBeforeHydration(form: RefObject<HTMLFormElement | null>, keep: (name: string, value: string) => void): void {
  useLayoutEffect(() => {
    for (const element of Array.from(form.current?.elements ?? [])) {
      if ((element as Field).name && typedInto(element)) keep((element as Field).name, (element as Field).value);
    }
    // once, as the form first appears; `keep` is a state setter's wrapper
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
