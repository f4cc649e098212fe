/** What may run inline on a page: its nonce (a rendered page), or each script's hash (a stored page, static-pages.ts). */
export interface InlineScripts {
  nonce?: string;
  /** CSP sources: 'sha256-…' */
  scriptHashes?: readonly string[];
}

/**
 * Headers every response carries. Scripts come from this origin; an HTML page's inline scripts
 * (Waku's bootstrap and RSC payload) run only with the page's nonce (`script-nonce.ts`), or on a
 * page served from memory by their hashes. Under `waku dev` Vite injects scripts of its own, so
 * development keeps 'unsafe-inline' and 'unsafe-eval'.
 * Styles stay 'unsafe-inline': React renders `style` attributes and the page inlines its stylesheet.
 */
export function contentSecurityPolicy(dev: boolean, inline: InlineScripts = {}): string {
  const allowed = inline.nonce ? ` 'nonce-${inline.nonce}'` : inline.scriptHashes?.length ? ` ${inline.scriptHashes.join(' ')}` : '';
  const scripts = dev ? " 'unsafe-inline' 'unsafe-eval'" : allowed;
  return [
    "default-src 'self'",
    `script-src 'self'${scripts}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    `connect-src 'self'${dev ? ' ws: wss:' : ''}`,
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The policy of every answer with nothing inline (the API's, assets'), made once. */
const WITHOUT_INLINE = { dev: contentSecurityPolicy(true), production: contentSecurityPolicy(false) };

export function applySecurityHeaders(headers: Headers, options: { dev: boolean; https: boolean } & InlineScripts): void {
  const policy = options.nonce || options.scriptHashes?.length ? contentSecurityPolicy(options.dev, options) : WITHOUT_INLINE[options.dev ? 'dev' : 'production'];
  headers.set('content-security-policy', policy);
  headers.set('x-content-type-options', 'nosniff');
  headers.set('referrer-policy', 'same-origin');
  headers.set('x-frame-options', 'DENY');
  headers.set('cross-origin-opener-policy', 'same-origin');
  headers.set('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  if (options.https) headers.set('strict-transport-security', 'max-age=31536000; includeSubDomains');
}
