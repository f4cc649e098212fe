import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { reconcileCredits } from '#api/modules/credit/reconcile.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { SHOPIFY_TOKEN, shopifyEnv } from '#tests/helpers/fake-shopify-backend.ts';
import { startFakeShopify } from '#tests/helpers/fake-shopify.ts';
import { createWarehouse, mailsTo, requestAt, signInPerson, uniqueEmail, type Person } from '#tests/helpers/fixtures.ts';

// databases and many requests per test: more room than bun's 5 s, also when several files run together
setDefaultTimeout(60_000);

/** Issue 15's list of places where the app departed from the spec, each proven through the real app. */
describe.each(databaseKinds())('spec departures, against a Shopify shop (%s)', (kind) => {
  let fake: Awaited<ReturnType<typeof startFakeShopify>>;
  let t: TestApp;
  let admin: Person;
  let customer: Person;
  let warehouseId: string;
  let shopifyId: string;

  beforeAll(async () => {
    fake = await startFakeShopify({ token: SHOPIFY_TOKEN });
    t = await createTestApp(kind, { ...shopifyEnv(fake) });
    shopifyId = fake.addCustomer('meera.iyer@example.com', { firstName: 'Meera', lastName: 'Iyer' });
    customer = await signInPerson(t, 'meera.iyer@example.com');
    admin = await signInPerson(t, 'valuer@swappoints.example', { admin: true });
    warehouseId = (await createWarehouse(t, admin)).id;
  });
  afterAll(async () => {
    await t.close();
    fake.close();
  });

  const credits = () => fake.transactionsOf(shopifyId).filter((x) => x.kind === 'credit');

  test('§5 credit ≥ 0: a 0 credit (an item taken for recycling) is recorded with no push to the shop, and the request can be completed', async () => {
    const id = await requestAt(t, 'received', customer, admin, warehouseId);
    const pushedBefore = credits().length;
    const res = await t.request('PUT', `/api/admin/exchange-requests/${id}/credit`, { token: admin.token, body: { creditAmount: 0 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ creditAmount: 0, loyaltyPointsSuccess: true });
    expect(res.body.creditedAt).toEqual(expect.any(String));
    expect(credits().length).toBe(pushedBefore);

    const row = await t.ctx.db.selectFrom('credit_ledger').selectAll().where('exchange_request_id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ amount: expect.stringMatching(/^0(\.00)?$/), push_status: 'success', push_attempts: 0, external_transaction_id: null, next_push_at: null });
    const history = await t.request('GET', `/api/admin/credit-history?q=${id}`, { token: admin.token });
    expect(history.body).toEqual([expect.objectContaining({ exchangeRequestId: id, amount: 0, loyaltyPointsSuccess: true })]);

    // credited once: a second assignment is refused as for any credit
    const again = await t.request('PUT', `/api/admin/exchange-requests/${id}/credit`, { token: admin.token, body: { creditAmount: 0 } });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('Credit has already been assigned to this request.');

    const done = await t.request('PUT', `/api/admin/exchange-requests/${id}/status`, { token: admin.token, body: { status: 'completed' } });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'completed', creditAmount: 0 });

    // nothing was owed to the shop, so reconciling finds nothing missing
    const report = await reconcileCredits(t.ctx);
    expect(report.issues.filter((issue) => issue.ledgerId === Number(row.id))).toEqual([]);
  });

  test('§5: a negative or non-numeric credit is still refused, and completing before any credit still is', async () => {
    const id = await requestAt(t, 'received', customer, admin, warehouseId);
    for (const creditAmount of [-1, 'abc', '', null]) {
      const res = await t.request('PUT', `/api/admin/exchange-requests/${id}/credit`, { token: admin.token, body: { creditAmount } });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Please enter a valid credit amount');
    }
    const early = await t.request('PUT', `/api/admin/exchange-requests/${id}/status`, { token: admin.token, body: { status: 'completed' } });
    expect(early.status).toBe(409);
    expect(early.body.error).toBe('You must assign credit before completing the exchange');
  });

  test('§3 GET /api/exchange/{id} carries the entity’s totalShopifyCredit and totalLoyaltyPoints (the shop balance)', async () => {
    const id = await requestAt(t, 'credited', customer, admin, warehouseId, 300);
    const balance = fake.balance(shopifyId);
    expect(balance).toBeGreaterThanOrEqual(300);
    const res = await t.request('GET', `/api/exchange/${id}`, { token: customer.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, creditAmount: 300, totalShopifyCredit: balance, totalLoyaltyPoints: balance });
  });
});

describe.each(databaseKinds())('money in each currency’s own convention (%s)', (kind) => {
  // one database, an app of each currency over it: each test has customers of its own
  const apps: Partial<Record<'INR' | 'USD', TestApp>> = {};
  beforeAll(async () => {
    apps.INR = await createTestApp(kind, { SHOP_CURRENCY: 'INR' });
    apps.USD = await createTestApp(kind, { SHOP_CURRENCY: 'USD' }, { sameDatabaseAs: apps.INR });
  });
  afterAll(async () => {
    await apps.USD?.close();
    await apps.INR?.close();
  });

  for (const [currency, expected] of [
    ['INR', '₹1,25,000.00'],
    ['USD', '$125,000.00'],
  ] as const) {
    test(`${currency}: the credit mail says ${expected}`, async () => {
      const t = apps[currency]!;
      const admin = await signInPerson(t, uniqueEmail('valuer'), { admin: true });
      const customer = await signInPerson(t, uniqueEmail('money'));
      const warehouseId = (await createWarehouse(t, admin, { name: `${currency} Warehouse` })).id;
      await requestAt(t, 'credited', customer, admin, warehouseId, 125_000);
      const [mail] = await mailsTo(t, customer.email, 'credit_assigned');
      expect(mail!.subject).toStartWith(`${expected} store credit`);
    });
  }
});
