import { CROSS_SITE_MESSAGE, isCrossSite } from '#api/modules/auth/plugin.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const JSON_ONLY_MESSAGE = 'Send the request body as JSON (Content-Type: application/json).';

const isJson = (contentType: string) => /^application\/json\s*(;|$)/i.test(contentType.trim());

function hasBody(request: Request): boolean {
  if (request.headers.has('transfer-encoding')) return true;
  const length = request.headers.get('content-length');
  return length !== null && length !== '0';
}

/**
 * Checks every change sent to the API before any route runs. A change from another site is refused
 * whether or not it carries a cookie (a cross-site form could otherwise sign a visitor into someone
 * else's account), and /api bodies must be JSON, which a plain HTML form cannot send.
 * /image/upload is multipart, so only the cross-site check applies there.
 */
export function guardApiRequest(request: Request, publicUrl: string): Response | undefined {
  if (SAFE_METHODS.has(request.method)) return undefined;
  const { pathname } = new URL(request.url);
  const isApi = pathname === '/api' || pathname.startsWith('/api/');
  if (!isApi && !pathname.startsWith('/image/')) return undefined;
  if (isCrossSite(request, publicUrl)) return Response.json({ error: CROSS_SITE_MESSAGE }, { status: 403, headers: { 'cache-control': 'no-store' } });
  if (!isApi) return undefined;
  const contentType = request.headers.get('content-type');
  if (contentType === null ? hasBody(request) : !isJson(contentType)) {
    return Response.json({ error: JSON_ONLY_MESSAGE }, { status: 415, headers: { 'cache-control': 'no-store' } });
  }
  return undefined;
}
