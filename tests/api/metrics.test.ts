import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sql } from 'kysely';
import { createEdge } from '#api/http/edge.ts';
import { createLogger } from '#api/lib/log.ts';
import { claimJobRun } from '#api/jobs/periodic.ts';
import { enqueueMail } from '#api/modules/mail/service.ts';
import { serveMetricsPort } from '#api/modules/metrics/port.ts';
import { metricsOnMainPort } from '#api/modules/metrics/endpoint.ts';
import { createMetrics } from '#api/modules/metrics/service.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/helpers/app.ts';
import { createTestDatabase, databaseKinds } from '#tests/helpers/db.ts';
import { requestAt } from '#tests/cli/operator-data.ts';

setDefaultTimeout(60_000);

const TOKEN = 'metrics-token-for-the-tests-0123456789';
const EMAIL = 'metrics.walker@example.com';

/** The value of one sample line, e.g. sample(text, 'x_count{a="b"}'); undefined when absent. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe.each(databaseKinds())('/metrics (%s)', (kind) => {
  let t: TestApp;
  let token: string;
  /** the scrape right after the requests of beforeAll */
  let counted: string;
  const pages: string[] = [];
  const edgeWith = (metricsToken: string | undefined) =>
    createEdge({
      handleApp: (request) => t.app.handle(request),
      log: createLogger('silent'),
      dev: false,
      https: false,
      trustProxy: 0,
      metrics: { metrics: t.ctx.metrics, token: metricsToken },
    });
  // pages are rendered by Waku in the server; here a page renderer that answers as one would
  const renderPage = async (request: Request) => {
    pages.push(new URL(request.url).pathname);
    return new Response('<p>page</p>', { headers: { 'content-type': 'text/html' } });
  };
  const get = (edge: ReturnType<typeof edgeWith>, path: string, headers: Record<string, string> = {}) =>
    edge(new Request(`${TEST_ORIGIN}${path}`, { headers }), undefined, renderPage);

  beforeAll(async () => {
    t = await createTestApp(kind);
    token = await t.signIn(EMAIL);
    const edge = edgeWith(TOKEN);
    const auth = { authorization: `Bearer ${token}` };
    for (const id of [123456, 654321]) expect((await get(edge, `/api/exchange/${id}`, auth)).status).toBe(404);
    expect((await get(edge, `/api/exchange`, auth)).status).toBe(200);
    expect((await get(edge, `/api/no-such-thing/${EMAIL}`)).status).toBe(404);
    expect((await get(edge, '/exchange/98765')).status).toBe(200);
    expect((await get(edge, `/some/page/${EMAIL}`)).status).toBe(200);
    // read now: the other cases send requests of their own through the same registry, in any order
    counted = await (await get(edge, '/metrics', { authorization: `Bearer ${TOKEN}` })).text();
  });
  afterAll(async () => {
    await t?.close();
  });

  test('with METRICS_TOKEN set, /metrics answers only Authorization: Bearer <token> (401 otherwise)', async () => {
    const edge = edgeWith(TOKEN);
    for (const headers of [{} as Record<string, string>, { authorization: 'Bearer wrong-token-of-some-length' }, { authorization: TOKEN }, { authorization: `Bearer ${token}` }]) {
      const res = await get(edge, '/metrics', headers);
      expect(res.status).toBe(401);
      expect(await res.text()).not.toContain('http_request_duration_seconds');
    }
    const res = await get(edge, '/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    expect(await res.text()).toContain('# TYPE http_request_duration_seconds histogram');
  });

  test('requests are counted by route template, method and status; no label holds an id, email or raw path', async () => {
    const text = counted;
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/api/exchange/:id",status="404"}')).toBe(2);
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/api/exchange/",status="200"}') ?? sample(text, 'http_request_duration_seconds_count{method="GET",route="/api/exchange",status="200"}')).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(sample(text, 'swappoints_page_render_duration_seconds_count{page="/exchange/[id]",status="200"}')).toBe(1);
    expect(sample(text, 'swappoints_page_render_duration_seconds_count{page="unmatched",status="200"}')).toBe(1);
    const labels = text.split('\n').filter((l) => !l.startsWith('#')).map((l) => l.slice(0, l.lastIndexOf(' ')));
    for (const unbounded of ['123456', '654321', '98765', EMAIL, 'example.com', token.slice(0, 20)]) {
      expect(labels.filter((l) => l.includes(unbounded))).toEqual([]);
    }
  });

  test('without METRICS_TOKEN, /metrics is not served on the main port: it is an ordinary path', async () => {
    const before = pages.length;
    await get(edgeWith(undefined), '/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(pages.slice(before)).toEqual(['/metrics']);
  });

  test('background work by kind and state, read at scrape time; the database pool; the process', async () => {
    const scrape = async () => (await get(edgeWith(TOKEN), '/metrics', { authorization: `Bearer ${TOKEN}` })).text();
    const dueBefore = sample(await scrape(), 'swappoints_jobs{kind="mail",state="due"}')!;
    await enqueueMail(t.ctx.db, { to: 'someone@example.com', subject: 's', text: 'x', kind: 'sign_in' });
    await enqueueMail(t.ctx.db, { to: 'someone@example.com', subject: 's', text: 'x', kind: 'sign_in' });
    const text = await scrape();
    expect(sample(text, 'swappoints_jobs{kind="mail",state="due"}')).toBe(dueBefore + 2);
    for (const kind of ['credit-push', 'webhooks', 'privacy']) for (const state of ['due', 'scheduled', 'failed']) expect(sample(text, `swappoints_jobs{kind="${kind}",state="${state}"}`)).toBe(0);
    expect(sample(text, 'swappoints_db_embedded')).toBe(kind === 'pglite' ? 1 : 0);
    expect(sample(text, 'swappoints_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    // the periodic jobs' runs, from their claims, in the same scrape as their last start
    await claimJobRun(t.ctx.db, 'prune-expired-rows', 3_600_000);
    const runs = await scrape();
    expect(sample(runs, 'swappoints_periodic_job_runs{job="prune-expired-rows"}')).toBe(1);
    expect(Math.abs(sample(runs, 'swappoints_periodic_job_last_start_seconds{job="prune-expired-rows"}')! - Date.now() / 1000)).toBeLessThan(60);
  });

  test('credit pushes are counted by outcome where the push is recorded', async () => {
    const scrape = async () => (await get(edgeWith(TOKEN), '/metrics', { authorization: `Bearer ${TOKEN}` })).text();
    const pushed = (text: string) => sample(text, 'swappoints_credit_pushes_total{outcome="pushed"}') ?? 0;
    const before = pushed(await scrape());
    await requestAt(t.ctx, 'credited');
    const text = await scrape();
    expect(pushed(text)).toBe(before + 1);
    expect(sample(text, 'swappoints_credit_pushes_total{outcome="failed"}') ?? 0).toBe(0);
  });

  test('METRICS_PORT serves /metrics alone, without a token, on its own listener', async () => {
    const server = serveMetricsPort(t.ctx.metrics, '127.0.0.1', 0);
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('http_request_duration_seconds_count');
      expect((await fetch(`http://127.0.0.1:${server.port}/api/exchange`)).status).toBe(404);
    } finally {
      await server.stop(true);
    }
  });
});

describe('/metrics when the database cannot be read', () => {
  test('the scrape still answers, without the gauges read from the database, and counts the failure', async () => {
    // none of the tables the gauges read is there (a copy of the migrated database, its schema dropped:
    // creating an empty database from nothing takes seconds)
    const { handle: database, drop } = await createTestDatabase('pglite');
    await sql`drop schema public cascade`.execute(database.db);
    try {
      const metrics = createMetrics(database);
      const res = await metricsOnMainPort(new Request('http://localhost/metrics', { headers: { authorization: `Bearer ${TOKEN}` } }), metrics, TOKEN);
      expect(res!.status).toBe(200);
      const text = await res!.text();
      expect(text).toContain('process_resident_memory_bytes');
      expect(text).not.toContain('swappoints_jobs{');
      // counted as the gauges are read, so a scrape shows the failures of the scrapes before it
      const next = await (await metricsOnMainPort(new Request('http://localhost/metrics', { headers: { authorization: `Bearer ${TOKEN}` } }), metrics, TOKEN))!.text();
      expect(sample(next, 'swappoints_metrics_database_errors_total')).toBeGreaterThanOrEqual(3);
    } finally {
      await drop();
    }
  });
});
