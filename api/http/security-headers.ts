/**
 * Headers every response carries. Waku's router renders its bootstrap and RSC payload as inline
 * scripts without a nonce, so scripts may be inline; everything else is locked to this origin.
 */
export function contentSecurityPolicy(dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ''}`,
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

export function applySecurityHeaders(headers: Headers, options: { dev: boolean; https: boolean }): void {
  headers.set('content-security-policy', contentSecurityPolicy(options.dev));
  headers.set('x-content-type-options', 'nosniff');
  headers.set('referrer-policy', 'same-origin');
  headers.set('x-frame-options', 'DENY');
  headers.set('cross-origin-opener-policy', 'same-origin');
  headers.set('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  if (options.https) headers.set('strict-transport-security', 'max-age=31536000; includeSubDomains');
}
