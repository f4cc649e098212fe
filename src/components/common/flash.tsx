'use client';

import { CheckCircle2, CircleAlert, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useRouter } from 'waku';
import { useTexts } from '#src/i18n/language-provider.tsx';

const KEY = 'swappoints.flash';
const EVENT = 'swappoints:flash';
const SHOWN_MS = 12_000;

/**
 * A short confirmation after an action ('Request submitted…'). Kept in sessionStorage so it
 * survives the navigation or refresh that follows the action, and shown once.
 */
export function flash(message: string, tone: 'success' | 'error' = 'success'): void {
  window.sessionStorage.setItem(KEY, JSON.stringify({ message, tone }));
  window.dispatchEvent(new Event(EVENT));
}

/** Where flashed messages appear: a polite live region at the bottom of the screen. */
export function FlashMessages() {
  const [message, setMessage] = useState<{ message: string; tone: string } | null>(null);
  const { path } = useRouter();
  const { t } = useTexts();

  useEffect(() => {
    const take = () => {
      const next = window.sessionStorage.getItem(KEY);
      if (!next) return;
      window.sessionStorage.removeItem(KEY);
      try {
        setMessage(JSON.parse(next) as { message: string; tone: string });
      } catch {
        // not ours
      }
    };
    take();
    window.addEventListener(EVENT, take);
    return () => window.removeEventListener(EVENT, take);
  }, [path]);

  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(null), SHOWN_MS);
    return () => clearTimeout(timer);
  }, [message]);

  return (
    <div role="status" aria-live="polite" className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex justify-center px-4">
      {message ? (
        <div
          className={`pointer-events-auto flex max-w-md items-start gap-3 rounded-lg border bg-card px-4 py-3 text-sm shadow-lg ${message.tone === 'error' ? 'border-destructive/50' : 'border-success/40'}`}
          data-testid="flash"
          data-tone={message.tone}
        >
          {message.tone === 'error' ? (
            <CircleAlert className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
          ) : (
            <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />
          )}
          <p className="flex-1 text-foreground">{message.message}</p>
          <button type="button" onClick={() => setMessage(null)} className="rounded-sm text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none" aria-label={t('flash.dismiss')}>
            <X className="size-4" aria-hidden="true" />
          </button>
        </div>
      ) : null}
    </div>
  );
}
