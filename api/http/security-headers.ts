/**
 * Headers every response carries. Scripts come from this origin; an HTML page's inline scripts
 * (Waku's bootstrap and RSC payload) run only with the page's nonce (`script-nonce.ts`). Under
 * `waku dev` Vite injects scripts of its own, so development keeps 'unsafe-inline' and 'unsafe-eval'.
 * Styles stay 'unsafe-inline': React renders `style` attributes and the page inlines its stylesheet.
 */
export function contentSecurityPolicy(dev: boolean, nonce?: string): string {
  const scripts = dev ? " 'unsafe-inline' 'unsafe-eval'" : nonce ? ` 'nonce-${nonce}'` : '';
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

/** The policy of every answer without a nonce (the API's, assets'), made once. */
const WITHOUT_NONCE = { dev: contentSecurityPolicy(true), production: contentSecurityPolicy(false) };

export function applySecurityHeaders(headers: Headers, options: { dev: boolean; https: boolean; nonce?: string }): void {
  const policy = options.nonce ? contentSecurityPolicy(options.dev, options.nonce) : WITHOUT_NONCE[options.dev ? 'dev' : 'production'];
  headers.set('content-security-policy', policy);
  headers.set('x-content-type-options', 'nosniff');
  headers.set('referrer-policy', 'same-origin');
  headers.set('x-frame-options', 'DENY');
  headers.set('cross-origin-opener-policy', 'same-origin');
  headers.set('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  if (options.https) headers.set('strict-transport-security', 'max-age=31536000; includeSubDomains');
}
