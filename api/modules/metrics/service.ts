import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db, PoolStats } from '#api/db/connect.ts';
import type { BacklogScope } from '#api/jobs/backlog.ts';
import { jobCounts, periodicJobRuns } from './jobs.ts';
import type { Metrics } from './model.ts';

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The process's Prometheus metrics, one registry per host (tests run many hosts in one process).
 * Counted on the hot path: requests and page renders (one histogram observation each), credit
 * pushes; read at scrape time: the background work (metrics/jobs.ts), the database pool, the process.
 * `scope` is what the background jobs read of the instance (the carrier the tracking poll asks).
 */
export function createMetrics(source: { db: Db; kind: 'pglite' | 'postgres'; pool?: PoolStats }, scope: BacklogScope = { carrier: null }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const http = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by route template, method and status, with their duration',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: SECONDS,
    registers: [registry],
  });
  const pages = new Histogram({
    name: 'swappoints_page_render_duration_seconds',
    help: 'Pages rendered (HTML and server-component payloads) by page template and status, with their duration',
    labelNames: ['page', 'status'] as const,
    buckets: SECONDS,
    registers: [registry],
  });
  const unreadable = new Counter({
    name: 'swappoints_metrics_database_errors_total',
    help: 'Database-backed gauges (background work, periodic jobs) that could not be read in a scrape',
    registers: [registry],
  });
  /** A database that cannot be read leaves its gauges empty for that scrape (the rest is still served), and is counted. */
  const orNothing = <T>(read: Promise<T[]>): Promise<T[]> =>
    read.catch(() => {
      unreadable.inc();
      return [];
    });
  const creditPushes = new Counter({
    name: 'swappoints_credit_pushes_total',
    help: 'Store credit pushes to the shop by outcome (pushed, failed)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'swappoints_jobs',
    help: 'Background work items by kind and state (due, scheduled, failed), read at scrape time',
    labelNames: ['kind', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const { kind, state, count } of await orNothing(jobCounts(source.db, scope))) this.set({ kind, state }, count);
    },
  });
  // a scrape collects every metric at once: the two gauges of the periodic jobs share one read
  let reading: ReturnType<typeof periodicJobRuns> | undefined;
  const periodicRuns = () => (reading ??= periodicJobRuns(source.db).finally(() => (reading = undefined)));
  new Gauge({
    name: 'swappoints_periodic_job_runs',
    help: 'Runs of each periodic background job, over every instance',
    labelNames: ['job'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const { job, runs } of await orNothing(periodicRuns())) this.set({ job }, runs);
    },
  });
  new Gauge({
    name: 'swappoints_periodic_job_last_start_seconds',
    help: 'When each periodic background job last started (Unix time)',
    labelNames: ['job'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const { job, lastStartedAt } of await orNothing(periodicRuns())) this.set({ job }, lastStartedAt.getTime() / 1000);
    },
  });
  new Gauge({
    name: 'swappoints_db_pool_connections',
    help: 'Database pool connections by state (total, idle, waiting clients); the embedded database is one connection',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const pool = source.pool ?? { totalCount: 1, idleCount: 0, waitingCount: 0 };
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  new Gauge({ name: 'swappoints_db_embedded', help: '1 on the embedded database (PGlite), 0 on PostgreSQL', registers: [registry] }).set(
    source.kind === 'pglite' ? 1 : 0,
  );

  return {
    registry,
    request(method: string, route: string, status: number, seconds: number) {
      http.observe({ method, route, status: String(status) }, seconds);
    },
    page(page: string, status: number, seconds: number) {
      pages.observe({ page, status: String(status) }, seconds);
    },
    creditPush(outcome: 'pushed' | 'failed') {
      creditPushes.inc({ outcome });
    },
  };
}
