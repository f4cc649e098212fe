import { timingSafeEqual } from 'node:crypto';
import type { Metrics } from './model.ts';

const unauthorized = () =>
  new Response('Unauthorized: /metrics needs Authorization: Bearer <METRICS_TOKEN>.\n', {
    status: 401,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer realm="metrics"' },
  });

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The Prometheus text exposition of every metric. */
export async function metricsResponse(metrics: Metrics): Promise<Response> {
  return new Response(await metrics.registry.metrics(), { headers: { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' } });
}

/**
 * /metrics on the main port: only with `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise).
 * Without a token set it is not served there (the caller goes on as for any other path).
 */
export async function metricsOnMainPort(request: Request, metrics: Metrics, token: string | undefined): Promise<Response | undefined> {
  if (!token) return undefined;
  const header = request.headers.get('authorization') ?? '';
  const given = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  if (!given || !sameSecret(given, token)) return unauthorized();
  return metricsResponse(metrics);
}
