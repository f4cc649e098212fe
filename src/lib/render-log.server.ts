/**
 * Waku 0.27.5 logs every error thrown while rendering (`onError` in waku/dist/lib/utils/render.js:
 * `console.error('Error during rendering:', e)`), the redirect that `unstable_redirect` throws on
 * purpose included, and offers no option to change that. A redirect is not an error: this drops
 * exactly that log line and lets every other one through.
 */

/** Waku marks its redirect by the digest of the error it throws (custom-errors.js), as its own SSR checks. */
const WAKU_CUSTOM_ERROR = '__WAKU_CUSTOM_ERROR__;';

export function isWakuRedirect(error: unknown): boolean {
  const digest = (error as { digest?: unknown } | null)?.digest;
  if (typeof digest !== 'string' || !digest.startsWith(WAKU_CUSTOM_ERROR)) return false;
  try {
    const info = JSON.parse(digest.slice(WAKU_CUSTOM_ERROR.length)) as { location?: unknown };
    return typeof info.location === 'string';
  } catch {
    return false;
  }
}

const INSTALLED = Symbol.for('swappoints.quietRedirects');

/** Installs the filter on console.error once per process. */
export function quietRedirectLogs(): void {
  const holder = console as unknown as Record<symbol, boolean>;
  if (holder[INSTALLED]) return;
  holder[INSTALLED] = true;
  const original = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    if (args[0] === 'Error during rendering:' && isWakuRedirect(args[1])) return;
    original(...args);
  };
}
