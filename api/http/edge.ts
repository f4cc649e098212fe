import type { Logger } from '#api/lib/log.ts';
import { CLIENT_IP_HEADER } from '#api/lib/request-meta.ts';
import { applySecurityHeaders } from './security-headers.ts';

export interface EdgeOptions {
  /** the Elysia app: /api/*, /image/*, /media/* */
  handleApp: (request: Request) => Promise<Response> | Response;
  log: Logger;
  dev: boolean;
  https: boolean;
  trustProxy: boolean;
}

/** What Bun.serve passes beside the request; absent when a request is handled in-process. */
export interface SocketInfo {
  requestIP?(request: Request): { address: string } | null;
}

const APP_PREFIXES = ['/api/', '/image/', '/media/'];
/** JSON bodies are small; uploads (/image/upload) cap their own reading at 6 MB. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;
const isAppPath = (pathname: string) => pathname === '/api' || APP_PREFIXES.some((p) => pathname.startsWith(p));

function clientAddress(request: Request, socket: SocketInfo | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  return socket?.requestIP?.(request)?.address ?? 'local';
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
  ): Promise<Response> {
    const started = performance.now();
    const given = incoming.headers.get('x-request-id');
    const requestId = given && /^[\w.-]{1,100}$/.test(given) ? given : crypto.randomUUID();
    const headers = new Headers(incoming.headers);
    headers.set('x-request-id', requestId);
    headers.set(CLIENT_IP_HEADER, clientAddress(incoming, socket, options.trustProxy));
    const request = new Request(incoming, { headers });
    const { pathname } = new URL(request.url);
    const toApp = isAppPath(pathname);

    const declaredLength = Number(request.headers.get('content-length') ?? 0);
    let response: Response;
    try {
      if (pathname.startsWith('/api/') && declaredLength > MAX_JSON_BODY_BYTES) {
        response = Response.json({ error: 'The request body is too large (1 MB at most).' }, { status: 413 });
      } else {
        response = toApp ? await options.handleApp(request) : await renderPage(request);
      }
    } catch (error) {
      options.log.error('request failed', { requestId, path: pathname, error });
      response = toApp
        ? Response.json({ error: 'Something went wrong on our side. Please try again later.', requestId }, { status: 500 })
        : new Response('Something went wrong on our side. Please try again later.', { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    }

    // Responses from fetch handlers may have immutable headers: copy them.
    const out = new Headers(response.headers);
    applySecurityHeaders(out, options);
    out.set('x-request-id', requestId);
    if (!out.has('cache-control')) {
      if (pathname.startsWith('/assets/') && response.status === 200) out.set('cache-control', 'public, max-age=31536000, immutable');
      else out.set('cache-control', 'no-store');
    }
    const ms = Math.round(performance.now() - started);
    options.log[response.status >= 500 ? 'error' : 'info']('http', {
      requestId,
      method: request.method,
      path: pathname,
      status: response.status,
      ms,
    });
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers: out });
  };
}

export type Edge = ReturnType<typeof createEdge>;
