import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sql } from 'kysely';
import { listJobs } from '#api/jobs/list.ts';
import { JOBS } from '#api/jobs/registry.ts';
import { metricsResponse } from '#api/modules/metrics/endpoint.ts';
import { jobCounts } from '#api/modules/metrics/jobs.ts';
import { createLabel } from '#api/modules/shipments/service.ts';
import { pollLateTracking } from '#api/modules/shipments/poll.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { RETURN_ADDRESS } from '#tests/helpers/fixtures.ts';
import { requestAt } from '#tests/cli/operator-data.ts';

setDefaultTimeout(60_000);

const STATES = ['due', 'scheduled', 'failed'] as const;
/** The `kind` values dashboards read (docs/grafana-dashboard.json, README): they never change. */
const DASHBOARD_KINDS = ['mail', 'credit-push', 'webhooks', 'whatsapp', 'privacy', 'carrier-tracking'];

/** swappoints_jobs as scraped: `kind/state` → count. */
async function jobSeries(t: TestApp): Promise<Map<string, number>> {
  const text = await (await metricsResponse(t.ctx.metrics)).text();
  const series = new Map<string, number>();
  for (const match of text.matchAll(/^swappoints_jobs\{kind="([^"]*)",state="([^"]*)"\} (\S+)$/gm)) series.set(`${match[1]}/${match[2]}`, Number(match[3]));
  return series;
}

describe.each(databaseKinds())('/metrics: background work from the job registry (%s)', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(kind, { CARRIER: 'embedded' });
  });
  afterAll(async () => {
    await t?.close();
  });

  test('every queue in the registry, and every scanned backlog, appears with its three states, under the kinds dashboards read', async () => {
    const registered = JOBS.flatMap((job) => (job.queue ? [job.queue.queue.metricsKind ?? job.queue.queue.kind] : job.backlog ? [job.backlog.kind] : []));
    const series = await jobSeries(t);
    expect([...series.keys()].sort()).toEqual(registered.flatMap((k) => STATES.map((state) => `${k}/${state}`)).sort());
    expect([...new Set(registered)].sort()).toEqual([...DASHBOARD_KINDS].sort());
  });

  test('credit pushes: failed is a push given up (failed, no next try), as jobs list calls it dead; a failed push waiting for its retry is scheduled, then due', async () => {
    const { id } = await requestAt(t.ctx, 'credited');
    const ledger = await t.ctx.db.selectFrom('credit_ledger').select('id').where('exchange_request_id', '=', id).executeTakeFirstOrThrow();
    const before = await jobSeries(t);
    const push = async (nextPush: ReturnType<typeof sql>) => {
      await sql`update credit_ledger set push_status = 'failed', last_push_error = 'shop down', next_push_at = ${nextPush} where id = ${ledger.id}`.execute(t.ctx.db);
      const now = await jobSeries(t);
      return Object.fromEntries(STATES.map((state) => [state, now.get(`credit-push/${state}`)! - before.get(`credit-push/${state}`)!]));
    };
    expect(await push(sql`now() + interval '1 hour'`)).toEqual({ due: 0, scheduled: 1, failed: 0 });
    expect(await push(sql`now() - interval '1 second'`)).toEqual({ due: 1, scheduled: 0, failed: 0 });
    expect(await push(sql`null`)).toEqual({ due: 0, scheduled: 0, failed: 1 });
    expect((await listJobs(t.ctx.db, { kind: 'credit-push', failed: true })).map((job) => [job.id, job.state])).toEqual([[`credit-push:${ledger.id}`, 'dead']]);
  });

  test('carrier tracking: a booked parcel is scheduled until its webhook is late, then due (what the next poll asks); delivered, it leaves; without a carrier nothing waits', async () => {
    const { id, email } = await requestAt(t.ctx, 'approved');
    const owner = await t.ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    await createLabel(t.ctx, { id: owner.id, email }, id, RETURN_ADDRESS);
    const tracking = async () => {
      const series = await jobSeries(t);
      return Object.fromEntries(STATES.map((state) => [state, series.get(`carrier-tracking/${state}`)]));
    };
    expect(await tracking()).toEqual({ due: 0, scheduled: 1, failed: 0 });
    await sql`update shipments set created_at = now() - interval '2 hours' where request_id = ${id}`.execute(t.ctx.db);
    expect(await tracking()).toEqual({ due: 1, scheduled: 0, failed: 0 });
    expect((await pollLateTracking(t.ctx)).polled).toBe(1);
    // the instance's carrier scopes it, as it scopes the poll
    expect((await jobCounts(t.ctx.db, { carrier: null })).filter((c) => c.kind === 'carrier-tracking' && c.count > 0)).toEqual([]);
    await sql`update shipments set latest_status = 'delivered', latest_status_at = now() - interval '2 hours' where request_id = ${id}`.execute(t.ctx.db);
    expect(await tracking()).toEqual({ due: 0, scheduled: 0, failed: 0 });
    expect((await pollLateTracking(t.ctx)).polled).toBe(0);
  });
});
