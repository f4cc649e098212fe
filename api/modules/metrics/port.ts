import { metricsResponse } from './endpoint.ts';
import type { Metrics } from './model.ts';

/**
 * METRICS_PORT: a listener of its own that serves only /metrics, without a token, meant for a
 * private interface (METRICS_HOST, 127.0.0.1 by default) that only the Prometheus server reaches.
 */
export function serveMetricsPort(metrics: Metrics, hostname: string, port: number) {
  return Bun.serve({
    hostname,
    port,
    fetch: (request) =>
      new URL(request.url).pathname === '/metrics' ? metricsResponse(metrics) : new Response('Not found: this port serves /metrics only.\n', { status: 404 }),
  });
}
