import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { analyticsFor } from '#api/modules/analytics/queries.ts';
import { SHOPIFY_TOKEN } from '#tests/helpers/fake-shopify-backend.ts';
import { startFakeShopify, type FakeShopify } from '#tests/helpers/fake-shopify.ts';
import { createRequest, createWarehouse, shippingBody, signInPerson, uniqueEmail, type Person } from '#tests/helpers/fixtures.ts';

// a database of its own per suite takes seconds on a loaded machine
setDefaultTimeout(60_000);

/**
 * The analytics figures on a seeded history: requests made through the real API in every state,
 * then moved back in time (the fixture's clock), in the default shop time zone (Asia/Kolkata,
 * UTC+5:30) so that day boundaries are the shop's, not UTC's.
 */
describe.each(databaseKinds())('analytics on a seeded history, a campaign bonus apart (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeShopify;
  let admin: Person;
  let customer: Person;
  let warehouseId: string;

  const ok = async (res: Promise<{ status: number; body: any }>) => {
    const r = await res;
    if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  async function made(productName: string, brand: string, stage: 'pending' | 'approved' | 'declined' | 'credited' | 'completed', credit = 0, failPush = false) {
    const id = await createRequest(t, customer, { productName, brand });
    const put = (path: string, body: unknown) => ok(t.request('PUT', `/api/admin/exchange-requests/${id}/${path}`, { token: admin.token, body }));
    if (stage === 'pending') return id;
    if (stage === 'declined') return (await put('status', { status: 'declined', adminFeedback: 'Not a printer part' }), id);
    await put('status', { status: 'approved', warehouseId });
    if (stage === 'approved') return id;
    await ok(t.request('POST', `/api/exchange/${id}/shipping`, { token: customer.token, body: shippingBody() }));
    await put('transit', { transitStatus: 'received' });
    if (failPush) fake.inject({ kind: 'http500', apply: false }, 'SwapPointsCredit');
    await put('credit', { creditAmount: credit });
    if (stage === 'completed') await put('status', { status: 'completed' });
    return id;
  }
  /** Moves a request (its row, timeline and ledger entry) to when it happened. */
  async function happened(id: string, created: string, credited?: string) {
    await sql`update exchange_requests set created_at = ${created}::timestamptz, credited_at = ${credited ?? null}::timestamptz where id = ${id}`.execute(t.ctx.db);
    await sql`update request_events set created_at = ${created}::timestamptz where request_id = ${id} and type = 'created'`.execute(t.ctx.db);
    if (credited) await sql`update credit_ledger set created_at = ${credited}::timestamptz where exchange_request_id = ${id}`.execute(t.ctx.db);
  }
  async function removed(id: string, created: string, how: 'cancel' | 'delete', at: string) {
    await happened(id, created);
    if (how === 'cancel') expect((await t.request('DELETE', `/api/exchange/${id}`, { token: customer.token })).status).toBe(200);
    else expect((await t.request('DELETE', `/api/admin/exchange-requests/${id}`, { token: admin.token })).status).toBe(200);
    await sql`update request_events set created_at = ${at}::timestamptz where request_id = ${id} and type <> 'created'`.execute(t.ctx.db);
  }

  beforeAll(async () => {
    fake = await startFakeShopify({ token: SHOPIFY_TOKEN });
    t = await createTestApp(kind, { SHOP_BACKEND: 'shopify', SHOPIFY_ADMIN_URL: fake.url, SHOPIFY_ADMIN_TOKEN: SHOPIFY_TOKEN, SHOPIFY_TIMEOUT_MS: '2000' });
    const [adminEmail, customerEmail] = [uniqueEmail('admin'), uniqueEmail('stats')];
    fake.addCustomer(adminEmail);
    fake.addCustomer(customerEmail);
    admin = await signInPerson(t, adminEmail, { admin: true });
    customer = await signInPerson(t, customerEmail);
    warehouseId = (await createWarehouse(t, admin)).id;
    // the first figures build the (empty) rollups: the history below then reaches them through the triggers
    expect((await t.request('GET', '/api/admin/analytics', { token: admin.token })).status).toBe(200);
    // a campaign adds ₹50 to Canon credits while the history is made: the bonus stays apart in the ledger
    const campaign = await t.request('POST', '/api/admin/valuation/campaigns', {
      token: admin.token,
      body: { name: 'Canon week', kind: 'amount', value: 50, brand: 'Canon', startsAt: new Date(Date.now() - 3_600_000).toISOString(), endsAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(campaign.status).toBe(201);

    // 23:45 in Kolkata on 10 November: the day before the range
    await happened(await made('HP 305 Black Ink', 'HP', 'pending'), '2026-11-10T18:15:00Z');
    // 00:15 on 11 November in Kolkata (still the 10th in UTC); credited 48 h later, 00:15 on the 13th
    await happened(await made('HP 305 Black Ink', 'HP', 'completed', 500), '2026-11-10T18:45:00Z', '2026-11-12T18:45:00Z');
    await happened(await made('Canon 057 Toner', 'Canon', 'credited', 300), '2026-11-11T04:00:00Z', '2026-11-11T16:00:00Z'); // 12 h
    await happened(await made('HP 305 Black Ink', 'HP', 'credited', 200, true), '2026-11-12T10:00:00Z', '2026-11-15T10:00:00Z'); // 72 h, push failed
    await happened(await made('Brother TN-2420', 'Brother', 'declined'), '2026-11-13T10:00:00Z');
    await happened(await made('Epson 003 Ink', 'Epson', 'pending'), '2026-11-14T10:00:00Z');
    await happened(await made('Ricoh SP 150 Drum', 'Ricoh', 'approved'), '2026-11-14T11:00:00Z');
    await removed(await made('Kyocera TK-1170', 'Kyocera', 'pending'), '2026-11-15T10:00:00Z', 'cancel', '2026-11-15T11:00:00Z');
    await removed(await made('Xerox 106R03621', 'Xerox', 'pending'), '2026-11-15T12:00:00Z', 'delete', '2026-11-16T09:00:00Z');
    // long before the range, credited then too
    await happened(await made('Epson 003 Ink', 'Epson', 'completed', 999), '2026-10-01T10:00:00Z', '2026-10-02T10:00:00Z');
  });
  afterAll(async () => {
    await t.close();
    fake.close();
  });

  test('GET /api/admin/analytics?from&to: credit per day, requests and outcomes, approval rate, time to credit, failed pushes, top brands and products', async () => {
    const res = await t.request('GET', '/api/admin/analytics?from=2026-11-11&to=2026-11-17', { token: admin.token });
    expect(res.status).toBe(200);
    const days = ['2026-11-11', '2026-11-12', '2026-11-13', '2026-11-14', '2026-11-15', '2026-11-16', '2026-11-17'];
    expect(res.body).toEqual({
      from: '2026-11-11',
      to: '2026-11-17',
      timeZone: 'Asia/Kolkata',
      currency: 'INR',
      bucket: 'day',
      credit: {
        total: 1050,
        bonus: 50,
        credits: 3,
        failedPushes: 1,
        series: days.map((start) => ({
          start,
          amount: { '2026-11-11': 350, '2026-11-13': 500, '2026-11-15': 200 }[start] ?? 0,
          bonus: start === '2026-11-11' ? 50 : 0,
          credits: ['2026-11-11', '2026-11-13', '2026-11-15'].includes(start) ? 1 : 0,
        })),
      },
      requests: {
        received: 8,
        approved: 4,
        declined: 1,
        cancelled: 1,
        deleted: 1,
        open: 1,
        approvalRate: 0.8,
        series: days.map((start) => ({ start, received: { '2026-11-11': 2, '2026-11-12': 1, '2026-11-13': 1, '2026-11-14': 2, '2026-11-15': 2 }[start] ?? 0 })),
      },
      timeToCredit: { credited: 3, medianHours: 48, p90Hours: 67.2 },
      topBrands: [
        { name: 'HP', credit: 700, requests: 2 },
        { name: 'Canon', credit: 350, requests: 1 },
      ],
      topProducts: [
        { name: 'HP 305 Black Ink', credit: 700, requests: 2 },
        { name: 'Canon 057 Toner', credit: 350, requests: 1 },
      ],
    });
  });

  test('a long range charts by week (Mondays) and takes in the older history', async () => {
    const res = await t.request('GET', '/api/admin/analytics?from=2026-09-28&to=2026-11-22', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.bucket).toBe('week');
    expect(res.body.credit.series.map((s: any) => s.start)).toEqual(['2026-09-28', '2026-10-05', '2026-10-12', '2026-10-19', '2026-10-26', '2026-11-02', '2026-11-09', '2026-11-16']);
    expect(res.body.credit.series.map((s: any) => s.amount)).toEqual([999, 0, 0, 0, 0, 0, 1050, 0]);
    expect(res.body.credit.total).toBe(2049);
    expect(res.body.credit.bonus).toBe(50);
    expect(res.body.requests).toMatchObject({ received: 10, open: 2, approved: 5 });
    expect(res.body.topBrands[0]).toEqual({ name: 'Epson', credit: 999, requests: 1 });
  });

  test('an empty range has zeros and no rate; bad ranges are 400 with a reason; only admins', async () => {
    const empty = await t.request('GET', '/api/admin/analytics?from=2025-01-01&to=2025-01-03', { token: admin.token });
    expect(empty.body).toMatchObject({ credit: { total: 0, credits: 0, failedPushes: 0 }, requests: { received: 0, approvalRate: null }, timeToCredit: { credited: 0, medianHours: null, p90Hours: null }, topBrands: [] });
    expect(empty.body.credit.series).toHaveLength(3);
    const bad: [string, string][] = [
      ['from=2026-11-20&to=2026-11-10', 'from must not be after to'],
      ['from=2024-01-01&to=2026-11-10', 'The range must be at most 366 days'],
      ['from=2026-02-30&to=2026-03-01', 'from and to must be dates like 2026-11-22'],
      ['from=yesterday', 'from and to must be dates like 2026-11-22'],
    ];
    for (const [query, error] of bad) {
      const res = await t.request('GET', `/api/admin/analytics?${query}`, { token: admin.token });
      expect({ query, status: res.status, error: res.body.error }).toEqual({ query, status: 400, error });
    }
    const fallback = await t.request('GET', '/api/admin/analytics', { token: admin.token });
    expect(fallback.status).toBe(200);
    expect(fallback.body.credit.series).toHaveLength(30);
    expect((await t.request('GET', '/api/admin/analytics', { token: customer.token })).status).toBe(403);
    expect((await t.request('GET', '/api/admin/analytics')).status).toBe(401);
  });

  test('the rollups the triggers kept equal a rebuild from the tables; another time zone rebuilds them with its own days', async () => {
    const get = async (query: string) => (await t.request('GET', `/api/admin/analytics?${query}`, { token: admin.token })).body;
    const [week, long] = ['from=2026-11-11&to=2026-11-17', 'from=2026-09-28&to=2026-11-22'];
    const kept = { week: await get(week), long: await get(long) };
    expect(kept.week.credit.total).toBe(1050);
    await sql`update analytics_rollup_state set zone = null`.execute(t.ctx.db);
    expect({ week: await get(week), long: await get(long) }).toEqual(kept);

    // in UTC the request made at 00:15 on 11 November in Kolkata was made on the 10th, and its credit
    // (00:15 on the 13th in Kolkata) came on the 12th
    const utc = await analyticsFor(t.ctx.db, { from: '2026-11-11', to: '2026-11-17' }, { timeZone: 'UTC', currency: 'INR' });
    expect(utc.requests.series.map((s) => s.received)).toEqual([1, 1, 1, 2, 2, 0, 0]);
    expect(utc.requests).toMatchObject({ received: 7, approved: 3, cancelled: 1, deleted: 1 });
    expect(utc.credit.series.map((s) => s.amount)).toEqual([350, 500, 0, 0, 200, 0, 0]);
    expect(utc.timeToCredit).toEqual({ credited: 3, medianHours: 48, p90Hours: 67.2 });
    expect((await sql<{ zone: string }>`select zone from analytics_rollup_state`.execute(t.ctx.db)).rows[0]!.zone).toBe('UTC');
    // and back in the shop's zone, the shop's days again
    expect({ week: await get(week), long: await get(long) }).toEqual(kept);
  });
});
