import type { Logger } from '#api/lib/log.ts';
import { metricsOnMainPort } from '#api/modules/metrics/endpoint.ts';
import { methodLabel, routeLabel } from '#api/modules/metrics/labels.ts';
import type { Metrics } from '#api/modules/metrics/model.ts';
import { CLIENT_IP_HEADER } from '#api/lib/request-meta.ts';
import { compressResponse } from './compression.ts';
import { withHeaders } from './headers.ts';
import { errorPage } from './error-page.ts';
import { visitorLanguage } from '#api/modules/users/rules.ts';
import type { PageFailures } from './page-failures.ts';
import { hasStylesheets, inlineStylesheets, stylesheetCookie } from './inline-css.ts';
import { gzippedPage } from './page-gzip.ts';
import { scriptNonce, withScriptNonce } from './script-nonce.ts';
import { applySecurityHeaders } from './security-headers.ts';
import type { PageRoutes, StaticAnswer, StaticPages } from './static-pages.ts';

export interface EdgeOptions {
  /** the Elysia app: /api/*, /image/*, /media/* */
  handleApp: (request: Request) => Promise<Response> | Response;
  log: Logger;
  dev: boolean;
  https: boolean;
  /** reverse proxies in front (TRUST_PROXY); 0 trusts no X-Forwarded-For */
  trustProxy: number;
  /** a page that fails is answered with the error screen: 503 when the database cannot be reached */
  pageErrors?: { supportEmail: string; databaseReachable: () => Promise<boolean>; failures?: PageFailures };
  /** the built public folder, whose assets have precompressed copies (compression.ts) */
  publicDir?: string;
  /** requests and page renders are counted here; /metrics is answered when a token is set (METRICS_TOKEN) */
  metrics?: { metrics: Metrics; token: string | undefined };
  /** pages with nothing per visitor, answered from memory (static-pages.ts); off under `waku dev` */
  staticPages?: StaticPages;
}

/** What Bun.serve passes beside the request; absent when a request is handled in-process. */
export interface SocketInfo {
  requestIP?(request: Request): { address: string } | null;
}

const APP_PREFIXES = ['/api/', '/image/', '/media/'];
/** JSON bodies are small; uploads (/image/upload) cap their own reading at 6 MB. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;
const isAppPath = (pathname: string) => pathname === '/api' || APP_PREFIXES.some((p) => pathname.startsWith(p));

/**
 * Each trusted proxy appends the address it saw, so the client is `hops` entries from the right;
 * entries further left were written by the client and prove nothing.
 */
export function clientAddress(request: Request, socket: SocketInfo | undefined, hops: number): string {
  const peer = socket?.requestIP?.(request)?.address ?? 'local';
  if (hops < 1) return peer;
  const entries = (request.headers.get('x-forwarded-for') ?? '').split(',').map((e) => e.trim()).filter(Boolean);
  if (entries.length === 0) return peer;
  return entries[Math.max(0, entries.length - hops)]!;
}

const tooLarge = () => Response.json({ error: 'The request body is too large (1 MB at most).' }, { status: 413 });

/**
 * An /api body read up to the JSON limit, on the stream: a chunked body declares no length, so
 * counting Content-Length alone would let it be read far past the limit before any route runs.
 * Returns the request with its body in memory, or null when it is too large.
 */
export async function withLimitedBody(request: Request, limit = MAX_JSON_BODY_BYTES): Promise<Request | null> {
  if (Number(request.headers.get('content-length') ?? 0) > limit) return null;
  if (!request.body) return request;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      void reader.cancel().catch(() => {}); // not awaited: Bun may never settle it for a request body
      return null;
    }
    chunks.push(value);
  }
  const headers = new Headers(request.headers);
  headers.delete('transfer-encoding');
  headers.set('content-length', String(size));
  return new Request(request.url, { method: request.method, headers, body: Buffer.concat(chunks), signal: request.signal });
}

/**
 * The front door of the one process: gives each request an id and the client's address,
 * hands /api, /image and /media to Elysia and everything else to Waku, and adds the security
 * and caching headers to every response.
 */
export function createEdge(options: EdgeOptions) {
  return async function serve(
    incoming: Request,
    socket: SocketInfo | undefined,
    renderPage: (request: Request) => Promise<Response>,
    /** the pages' routes: which are served from memory (static-pages.ts) */
    routes?: PageRoutes,
  ): Promise<Response> {
    const started = performance.now();
    const given = incoming.headers.get('x-request-id');
    const requestId = given && /^[\w.-]{1,100}$/.test(given) ? given : crypto.randomUUID();
    const request = withHeaders(incoming, { 'x-request-id': requestId, [CLIENT_IP_HEADER]: clientAddress(incoming, socket, options.trustProxy) });
    const { pathname } = new URL(request.url);
    const toApp = isAppPath(pathname);
    if (pathname === '/metrics' && options.metrics) {
      const answer = await metricsOnMainPort(request, options.metrics.metrics, options.metrics.token);
      if (answer) return answer;
    }

    let response: Response;
    let handled = request; // the request the app saw: its route is noted on it (metrics/labels.ts)
    /** a page from memory: its headers, CSP hashes and compression are already final */
    let stored: StaticAnswer | null = null;
    try {
      const limited = pathname.startsWith('/api/') ? await withLimitedBody(request) : request;
      if (limited) handled = limited;
      if (!limited) response = tooLarge();
      else if (toApp) response = await options.handleApp(limited);
      else {
        stored = options.staticPages && routes && !options.dev ? await options.staticPages.answer(limited, routes, renderPage) : null;
        response = stored ? stored.response : await renderPage(limited);
      }
    } catch (error) {
      options.log.error('request failed', { requestId, path: pathname, error });
      response = toApp
        ? Response.json({ error: 'Something went wrong on our side. Please try again later.', requestId }, { status: 500 })
        : new Response('Something went wrong on our side. Please try again later.', { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    }
    const noted = toApp ? undefined : options.pageErrors?.failures?.take(requestId);
    if (!toApp && response.status >= 500 && options.pageErrors && !pathname.startsWith('/RSC/')) {
      const databaseDown = !(await options.pageErrors.databaseReachable());
      const lang = visitorLanguage({ cookie: request.headers.get('cookie'), acceptLanguage: request.headers.get('accept-language') });
      response = errorPage({ databaseDown, message: noted, supportEmail: options.pageErrors.supportEmail, path: pathname + new URL(request.url).search, requestId, lang });
    }

    response = withHeaders(response, { 'x-request-id': requestId });
    const out = response.headers;
    const html = !toApp && !stored && response.body !== null && (out.get('content-type') ?? '').startsWith('text/html');
    const nonce = html && !options.dev ? scriptNonce() : undefined;
    applySecurityHeaders(out, { ...options, nonce, scriptHashes: stored?.scriptHashes });
    if (!out.has('cache-control')) {
      if (pathname.startsWith('/assets/') && response.status === 200) out.set('cache-control', 'public, max-age=31536000, immutable');
      else out.set('cache-control', 'no-store');
    }
    const seconds = (performance.now() - started) / 1000;
    const route = routeLabel(handled, pathname, toApp);
    if (options.metrics) {
      options.metrics.metrics.request(methodLabel(request.method), route, response.status, seconds);
      if (!toApp && route !== '/assets/*') options.metrics.metrics.page(route, response.status, seconds);
    }
    options.log[response.status >= 500 ? 'error' : 'info']('http', {
      requestId,
      method: request.method,
      path: pathname,
      route,
      status: response.status,
      durationMs: Math.round(seconds * 1000),
    });
    // a page that inlines the stylesheet tells the browser it now has it (inline-css.ts)
    const { publicDir } = options;
    const inlines = publicDir !== undefined && (stored !== null || html) && !hasStylesheets(request, publicDir);
    if (inlines) out.append('set-cookie', stylesheetCookie(publicDir, options.https));
    if (stored) return response;
    if (html) {
      out.delete('content-length');
      if (nonce) response = withScriptNonce(new Response(response.body, { status: response.status, statusText: response.statusText, headers: out }), nonce);
      if (inlines && response.body) {
        const gzipped = gzippedPage(request, response, publicDir);
        if (gzipped) return gzipped;
        response = new Response(inlineStylesheets(response.body, publicDir), { status: response.status, statusText: response.statusText, headers: response.headers });
      }
    }
    return compressResponse(request, pathname, response, options.publicDir);
  };
}

export type Edge = ReturnType<typeof createEdge>;
