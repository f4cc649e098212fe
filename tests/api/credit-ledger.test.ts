import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { sql } from 'kysely';
import type { CreditPush, PushOutcome, ShopBackend } from '#api/integrations/shop/types.ts';
import { MAX_PUSH_ATTEMPTS, pushAllDueCredits, pushBackoffSeconds, pushDueCredits } from '#api/modules/credit/push.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { SHOPIFY_TOKEN } from '#tests/helpers/fake-shopify-backend.ts';
import { startFakeShopify } from '#tests/helpers/fake-shopify.ts';
import { createWarehouse, requestAt, signInPerson, type Person } from '#tests/helpers/fixtures.ts';

// databases and many requests per test: more room than bun's 5 s, also when several files run together
setDefaultTimeout(60_000);

type Fake = Awaited<ReturnType<typeof startFakeShopify>>;

describe.each(databaseKinds())('credit assignment against Shopify (%s)', (kind) => {
  let fake: Fake;
  let t: TestApp;
  let admin: Person;
  let customer: Person;
  let warehouseId: string;
  let shopifyId: string;

  beforeAll(async () => {
    fake = await startFakeShopify({ token: SHOPIFY_TOKEN });
    t = await createTestApp(kind, {
      SHOP_BACKEND: 'shopify',
      SHOPIFY_ADMIN_URL: fake.url,
      SHOPIFY_ADMIN_TOKEN: SHOPIFY_TOKEN,
      SHOPIFY_API_VERSION: fake.apiVersion,
      SHOPIFY_TIMEOUT_MS: '1000',
    });
    shopifyId = fake.addCustomer('rohan.mehta@example.com', { firstName: 'Rohan', lastName: 'Mehta' });
    customer = await signInPerson(t, 'rohan.mehta@example.com');
    admin = await signInPerson(t, 'valuer@swappoints.example', { admin: true });
    warehouseId = (await createWarehouse(t, admin)).id;
  });
  afterAll(async () => {
    await t.close();
    fake.close();
  });

  const credit = (id: string, creditAmount: number) => t.request('PUT', `/api/admin/exchange-requests/${id}/credit`, { token: admin.token, body: { creditAmount } });
  const ledgerOf = (id: string) => t.ctx.db.selectFrom('credit_ledger').selectAll().where('exchange_request_id', '=', id).executeTakeFirstOrThrow();
  const credits = () => fake.transactionsOf(shopifyId).filter((x) => x.kind === 'credit');

  test('the credit reaches the shop at once: loyaltyPointsSuccess, the transaction id, and the balance in the admin detail', async () => {
    const before = fake.balance(shopifyId);
    const id = await requestAt(t, 'received', customer, admin, warehouseId);
    const res = await credit(id, 400);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ creditAmount: 400, loyaltyPointsSuccess: true });
    expect(fake.balance(shopifyId)).toBe(before + 400);
    const row = await ledgerOf(id);
    expect(row).toMatchObject({ push_status: 'success', push_attempts: 1, last_push_error: null, next_push_at: null });
    expect(row.external_transaction_id).toBe(credits().at(-1)!.id);
    const detail = await t.request('GET', `/api/admin/exchange-requests/${id}`, { token: admin.token });
    expect(detail.body).toMatchObject({ customerName: 'Rohan Mehta', totalShopifyCredit: before + 400, totalLoyaltyPoints: before + 400 });
  });

  test('a failed push keeps the credit, says Failed, is retried with backoff, and a manual retry credits exactly once', async () => {
    const id = await requestAt(t, 'received', customer, admin, warehouseId);
    const before = credits().length;
    fake.inject({ kind: 'http500', apply: false }, 'SwapPointsCredit');
    const res = await credit(id, 250);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ creditAmount: 250, loyaltyPointsSuccess: false });
    const failed = await ledgerOf(id);
    expect(failed).toMatchObject({ push_status: 'failed', push_attempts: 1 });
    expect(failed.last_push_error).toBeTruthy();
    const waitS = (new Date(failed.next_push_at!).getTime() - Date.now()) / 1000;
    expect(waitS).toBeGreaterThan(pushBackoffSeconds(1) - 10);
    expect(waitS).toBeLessThanOrEqual(pushBackoffSeconds(1) + 1);

    const history = await t.request('GET', `/api/admin/credit-history?q=${id}`, { token: admin.token });
    expect(history.body).toEqual([expect.objectContaining({ exchangeRequestId: id, amount: 250, loyaltyPointsSuccess: false, pushStatus: 'failed', pushAttempts: 1 })]);
    // not due yet: the background job leaves it alone
    expect((await pushAllDueCredits(t.ctx)).claimed).toBe(0);

    const retry = await t.request('POST', `/api/admin/credit-history/${failed.id}/retry`, { token: admin.token });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ id: failed.id, loyaltyPointsSuccess: true, pushStatus: 'success', pushError: null, pushAttempts: 2 });
    expect(credits().length).toBe(before + 1);
    const again = await t.request('POST', `/api/admin/credit-history/${failed.id}/retry`, { token: admin.token });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'This credit has already reached the shop; there is nothing to retry.' });
  });

  test('when the shop applied a credit but the answer was lost, the next attempt finds it and does not credit twice', async () => {
    const id = await requestAt(t, 'received', customer, admin, warehouseId);
    const before = credits().length;
    fake.inject({ kind: 'reset' }, 'SwapPointsCredit');
    const res = await credit(id, 125);
    expect(res.body.loyaltyPointsSuccess).toBe(false);
    expect(credits().length).toBe(before + 1); // it did reach the shop
    const row = await ledgerOf(id);
    await t.ctx.db.updateTable('credit_ledger').set({ next_push_at: sql`now()` }).where('id', '=', row.id).execute();
    const report = await pushAllDueCredits(t.ctx);
    expect(report).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(credits().length).toBe(before + 1);
    const after = await ledgerOf(id);
    expect(after.push_status).toBe('success');
    expect(after.external_transaction_id).toBe(credits().at(-1)!.id);
  });

  test('a refusal by the shop is not retried automatically; only by hand', async () => {
    const id = await requestAt(t, 'received', customer, admin, warehouseId);
    fake.inject({ kind: 'userError', code: 'CREDIT_LIMIT_EXCEEDED', message: 'The credit limit has been exceeded' }, 'SwapPointsCredit');
    expect((await credit(id, 60)).body.loyaltyPointsSuccess).toBe(false);
    const row = await ledgerOf(id);
    expect(row).toMatchObject({ push_status: 'failed', next_push_at: null });
    expect(row.last_push_error).toContain('CREDIT_LIMIT_EXCEEDED');
    expect((await pushAllDueCredits(t.ctx)).claimed).toBe(0);
    const retry = await t.request('POST', `/api/admin/credit-history/${row.id}/retry`, { token: admin.token });
    expect(retry.body).toMatchObject({ pushStatus: 'success', loyaltyPointsSuccess: true });
  });

  test('the admin detail never fails for the shop: an unknown customer gives null balances', async () => {
    const id = await requestAt(t, 'received', customer, admin, warehouseId);
    fake.removeCustomer('rohan.mehta@example.com');
    try {
      const detail = await t.request('GET', `/api/admin/exchange-requests/${id}`, { token: admin.token });
      expect(detail.status).toBe(200);
      expect(detail.body).toMatchObject({ id, totalLoyaltyPoints: null, totalShopifyCredit: null });
    } finally {
      shopifyId = fake.addCustomer('rohan.mehta@example.com', { firstName: 'Rohan', lastName: 'Mehta' });
    }
  });

  test('retrying a missing or malformed record is 404; a pending one is 409', async () => {
    for (const bad of ['999999', 'abc', '1.5', '-1']) {
      const res = await t.request('POST', `/api/admin/credit-history/${bad}/retry`, { token: admin.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Credit record not found' });
    }
    const id = await requestAt(t, 'received', customer, admin, warehouseId);
    await t.ctx.db.transaction().execute(async (trx) => {
      await trx.updateTable('exchange_requests').set({ credit_amount: sql`10`, credited_at: new Date() }).where('id', '=', id).execute();
      await trx.insertInto('credit_ledger').values({ user_id: customer.id, exchange_request_id: id, type: 'exchange_credit', amount: 10, currency: 'INR' }).execute();
    });
    const row = await ledgerOf(id);
    const res = await t.request('POST', `/api/admin/credit-history/${row.id}/retry`, { token: admin.token });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('This credit is being pushed to the shop right now; there is nothing to retry.');
  });
});

/** A shop whose answers a test scripts, recording every push it is asked for. */
function scriptedShop(base: ShopBackend, answer: (push: CreditPush) => Promise<PushOutcome>) {
  const pushes: CreditPush[] = [];
  const shop: ShopBackend = { ...base, pushCredit: async (push) => (pushes.push(push), answer(push)) };
  return { shop, pushes };
}

describe.each(databaseKinds())('the credit push worker (%s)', (kind) => {
  let t: TestApp;
  let admin: Person;
  let customer: Person;
  let warehouseId: string;
  let embedded: ShopBackend;

  beforeAll(async () => {
    t = await createTestApp(kind);
    embedded = t.ctx.shop;
    admin = await signInPerson(t, 'valuer@swappoints.example', { admin: true });
    customer = await signInPerson(t);
    warehouseId = (await createWarehouse(t, admin)).id;
  });
  afterAll(() => t.close());

  const creditWith = async (shop: ShopBackend, amount = 90) => {
    const id = await requestAt(t, 'received', customer, admin, warehouseId);
    t.ctx.shop = shop;
    try {
      const res = await t.request('PUT', `/api/admin/exchange-requests/${id}/credit`, { token: admin.token, body: { creditAmount: amount } });
      expect(res.status).toBe(200);
    } finally {
      t.ctx.shop = embedded;
    }
    return t.ctx.db.selectFrom('credit_ledger').selectAll().where('exchange_request_id', '=', id).executeTakeFirstOrThrow();
  };
  const makeDue = (id: number) => t.ctx.db.updateTable('credit_ledger').set({ next_push_at: sql`now()` }).where('id', '=', id).execute();

  test('the push carries the ledger id, amount, currency and customer; the first attempt is not "unknown"', async () => {
    const { shop, pushes } = scriptedShop(embedded, async (p) => ({ status: 'success', transactionId: `tx-${p.ledgerId}` }));
    const row = await creditWith(shop, 321);
    expect(pushes).toEqual([
      { ledgerId: row.id, amount: '321.00', currency: 'INR', customer: { userId: customer.id, email: customer.email, shopCustomerId: expect.any(String) }, previousAttemptUnknown: false },
    ]);
    expect(row).toMatchObject({ push_status: 'success', external_transaction_id: `tx-${row.id}` });
  });

  test('a throwing shop counts as retryable with an unknown outcome; the next attempt says so', async () => {
    let calls = 0;
    const { shop, pushes } = scriptedShop(embedded, async (p) => {
      if (++calls === 1) throw new Error('socket hang up');
      return { status: 'success', transactionId: `tx-${p.ledgerId}` };
    });
    const row = await creditWith(shop);
    expect(row).toMatchObject({ push_status: 'failed', last_push_error: 'socket hang up', push_attempts: 1 });
    expect(row.next_push_at).not.toBeNull();
    await makeDue(row.id);
    t.ctx.shop = shop;
    try {
      expect(await pushDueCredits(t.ctx, { limit: 10 })).toEqual({ claimed: 1, succeeded: 1, failed: 0 });
    } finally {
      t.ctx.shop = embedded;
    }
    expect(pushes.map((p) => p.previousAttemptUnknown)).toEqual([false, true]);
  });

  test(`retryable failures back off 30 s × 2^attempts (at most 6 h) and stop after ${MAX_PUSH_ATTEMPTS} attempts`, async () => {
    expect([1, 2, 3, 9, 10, 30].map(pushBackoffSeconds)).toEqual([60, 120, 240, 15_360, 21_600, 21_600]);
    const { shop, pushes } = scriptedShop(embedded, async () => ({ status: 'failed', error: 'HTTP 502', retryable: true }));
    const row = await creditWith(shop);
    t.ctx.shop = shop;
    try {
      for (let attempt = 2; attempt <= MAX_PUSH_ATTEMPTS; attempt++) {
        await makeDue(row.id);
        expect((await pushDueCredits(t.ctx, { onlyId: row.id })).failed).toBe(1);
      }
      const last = await t.ctx.db.selectFrom('credit_ledger').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
      expect(last).toMatchObject({ push_status: 'failed', push_attempts: MAX_PUSH_ATTEMPTS, next_push_at: null, last_push_error: 'HTTP 502' });
      expect(pushes).toHaveLength(MAX_PUSH_ATTEMPTS);
      expect((await pushAllDueCredits(t.ctx)).claimed).toBe(0);
    } finally {
      t.ctx.shop = embedded;
    }
  });

  test('a claimed row is leased: nobody else pushes it until the lease ends', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { shop, pushes } = scriptedShop(embedded, async (p) => {
      await gate;
      return { status: 'success', transactionId: `tx-${p.ledgerId}` };
    });
    const id = await requestAt(t, 'received', customer, admin, warehouseId);
    t.ctx.shop = shop;
    try {
      const assigning = t.request('PUT', `/api/admin/exchange-requests/${id}/credit`, { token: admin.token, body: { creditAmount: 70 } });
      while (pushes.length === 0) await Bun.sleep(5);
      // while the first push is in flight, the row shows pending and is not due
      const inFlight = await t.ctx.db.selectFrom('credit_ledger').selectAll().where('exchange_request_id', '=', id).executeTakeFirstOrThrow();
      expect(inFlight.push_status).toBe('pending');
      expect((await pushDueCredits(t.ctx, { onlyId: inFlight.id })).claimed).toBe(0);
      const retry = await t.request('POST', `/api/admin/credit-history/${inFlight.id}/retry`, { token: admin.token });
      expect(retry.status).toBe(409);
      release();
      expect((await assigning).body.loyaltyPointsSuccess).toBe(true);
      expect(pushes).toHaveLength(1);
    } finally {
      t.ctx.shop = embedded;
    }
  });
});
