import { unstable_getContext as getContext, unstable_getContextData as getContextData } from 'waku/server';
import type { PageSessions } from '../../api/modules/auth/page-sessions.ts';
import { host } from './host.server.ts';

export interface ApiResult<T> {
  ok: boolean;
  status: number;
  data: T | null;
  /** the API's `error` text when it failed */
  error: string | null;
  total: number | null;
}

/** Headers of the page request that the API needs: who is asking (cookie), and the request's id and client address. */
const FORWARDED = ['cookie', 'x-request-id', 'x-swappoints-client-ip', 'user-agent', 'accept-language'];

/**
 * Calls the SwapPoints API in-process, as the person viewing the page: no HTTP hop, the same
 * authorization as the browser's own calls.
 */
export async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<ApiResult<T>> {
  const page = getContext().req;
  const headers = new Headers();
  for (const name of FORWARDED) {
    const value = page.headers.get(name);
    if (value) headers.set(name, value);
  }
  const origin = new URL(page.url).origin;
  if (init.body !== undefined) headers.set('content-type', 'application/json');
  headers.set('origin', origin);
  headers.set('host', new URL(page.url).host);
  const request = new Request(`${origin}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  // the reads of one render share one read of the session; a change (a logout) may end it, so after
  // one the next read checks the session again
  const render = getContextData() as { sessions?: PageSessions };
  const reads = request.method === 'GET';
  const response = await host().handleApi(request, reads ? (render.sessions ??= new Map()) : undefined);
  if (!reads) render.sessions?.clear();
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  const error = !response.ok && body && typeof body === 'object' && 'error' in body ? String((body as { error: unknown }).error) : null;
  const total = response.headers.get('x-total-count');
  return {
    ok: response.ok,
    status: response.status,
    data: response.ok ? (body as T) : null,
    error: response.ok ? null : (error ?? `Request failed (${response.status})`),
    total: total === null ? null : Number(total),
  };
}
