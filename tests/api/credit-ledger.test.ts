import { afterAll, afterEach, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { sql } from 'kysely';
import { MAX_PUSH_ATTEMPTS, pushAllDueCredits, pushBackoffSeconds, pushDueCredits } from '#api/modules/credit/push.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { SHOPIFY_TOKEN, shopifyEnv } from '#tests/helpers/fake-shopify-backend.ts';
import { startFakeShopify } from '#tests/helpers/fake-shopify.ts';
import { createWarehouse, requestAt, signInPerson, uniqueEmail, type Person } from '#tests/helpers/fixtures.ts';

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
    // the settings' own Shopify timeout: the lease test holds the shop's answer while it looks
    t = await createTestApp(kind, shopifyEnv(fake));
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

/**
 * The push worker against the fake Shopify over its socket: the shop's faults (HTTP 500, a held
 * answer) drive the backoff, the attempt limit, the lease and the unknown-outcome look-back.
 */
describe.each(databaseKinds())('the credit push worker against the shop (%s)', (kind) => {
  let fake: Fake;
  let t: TestApp;
  let admin: Person;
  let warehouseId: string;

  beforeAll(async () => {
    // an API version whose credits carry a note naming the ledger row
    fake = await startFakeShopify({ token: SHOPIFY_TOKEN, apiVersion: '2027-01' });
    t = await createTestApp(kind, {
      ...shopifyEnv(fake),
      // generous: these tests are about the worker, not the timeout (shopify-retries covers that)
      SHOPIFY_TIMEOUT_MS: '30000',
    });
    admin = await signInPerson(t, 'valuer@swappoints.example', { admin: true });
    warehouseId = (await createWarehouse(t, admin)).id;
  });
  afterEach(() => fake.clearFaults());
  afterAll(async () => {
    await t.close();
    fake.close();
  });

  /**
   * A customer of their own, known to the shop, with a request received and ready for credit, and
   * a store credit account holding ₹5 from the shop itself (so an earlier credit has to be looked for).
   */
  async function receivedRequest() {
    const email = uniqueEmail();
    const shopId = fake.addCustomer(email);
    fake.creditDirectly(shopId, 5, 'INR', { note: 'Goodwill from the shop' });
    const customer = await signInPerson(t, email);
    return { id: await requestAt(t, 'received', customer, admin, warehouseId), shopId, customer };
  }
  const ledgerOf = (id: string) => t.ctx.db.selectFrom('credit_ledger').selectAll().where('exchange_request_id', '=', id).executeTakeFirstOrThrow();
  const ledgerRow = (id: number) => t.ctx.db.selectFrom('credit_ledger').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const assign = (id: string, creditAmount: number) => t.request('PUT', `/api/admin/exchange-requests/${id}/credit`, { token: admin.token, body: { creditAmount } });
  const makeDue = (id: number) => t.ctx.db.updateTable('credit_ledger').set({ next_push_at: sql`now()` }).where('id', '=', id).execute();
  /** the operations the shop was asked for from request number `from` on */
  const operationsSince = (from: number) => fake.requests.slice(from).map((r) => r.operation);
  const HTTP_500_ERROR = 'Error connecting to Shopify: Shopify answered HTTP 500 to crediting store credit';
  const secondsUntil = (at: Date | string | null) => (new Date(at!).getTime() - Date.now()) / 1000;

  test('the push names the customer, amount, currency and the ledger row; a first attempt credits without looking back', async () => {
    const { id, shopId } = await receivedRequest();
    const from = fake.requests.length;
    expect((await assign(id, 321)).body).toMatchObject({ creditAmount: 321, loyaltyPointsSuccess: true });
    const row = await ledgerOf(id);
    expect(operationsSince(from)).toEqual(['SwapPointsCustomerCredit', 'SwapPointsCredit']);
    expect(fake.requests.at(-1)!.variables).toEqual({
      id: shopId,
      creditInput: { creditAmount: { amount: '321.00', currencyCode: 'INR' }, note: `SwapPoints credit #${row.id} (localhost:3000)` },
    });
    const [, transaction] = fake.transactionsOf(shopId);
    expect(transaction).toMatchObject({ kind: 'credit', cents: 32_100, currency: 'INR' });
    expect(row).toMatchObject({ push_status: 'success', push_attempts: 1, external_transaction_id: transaction!.id });
  });

  test('an HTTP 500 is retryable with an unknown outcome: the next attempt reads the credit history first, then credits once', async () => {
    const { id, shopId } = await receivedRequest();
    fake.inject({ kind: 'http500', apply: false }, 'SwapPointsCredit');
    expect((await assign(id, 90)).body).toMatchObject({ loyaltyPointsSuccess: false });
    const row = await ledgerOf(id);
    expect(row).toMatchObject({ push_status: 'failed', last_push_error: HTTP_500_ERROR, push_attempts: 1 });
    expect(fake.transactionsOf(shopId).map((x) => x.cents)).toEqual([500]);

    await makeDue(row.id);
    const from = fake.requests.length;
    expect(await pushDueCredits(t.ctx, { onlyId: row.id })).toEqual({ claimed: 1, succeeded: 1, failed: 0 });
    expect(operationsSince(from)).toEqual(['SwapPointsCustomerCredit', 'SwapPointsCreditHistory', 'SwapPointsCredit']);
    expect(fake.transactionsOf(shopId).map((x) => x.cents)).toEqual([500, 9_000]);
  });

  test('a credit applied but answered with a reset is found by the next attempt and not made twice', async () => {
    const { id, shopId } = await receivedRequest();
    fake.inject({ kind: 'reset' }, 'SwapPointsCredit');
    expect((await assign(id, 125)).body).toMatchObject({ loyaltyPointsSuccess: false });
    const row = await ledgerOf(id);
    expect(row).toMatchObject({ push_status: 'failed', push_attempts: 1 });
    expect(row.last_push_error).toBe('Error connecting to Shopify: connection to Shopify failed while crediting store credit (ECONNRESET)');
    await makeDue(row.id);
    const from = fake.requests.length;
    expect(await pushDueCredits(t.ctx, { onlyId: row.id })).toEqual({ claimed: 1, succeeded: 1, failed: 0 });
    expect(operationsSince(from)).toEqual(['SwapPointsCustomerCredit', 'SwapPointsCreditHistory']);
    const credits = fake.transactionsOf(shopId);
    expect(credits.map((x) => x.cents)).toEqual([500, 12_500]);
    expect((await ledgerRow(row.id)).external_transaction_id).toBe(credits[1]!.id);
  });

  test(`failures back off 30 s × 2^attempts (at most 6 h) and stop after ${MAX_PUSH_ATTEMPTS} attempts`, async () => {
    expect([1, 2, 3, 9, 10, 30].map(pushBackoffSeconds)).toEqual([60, 120, 240, 15_360, 21_600, 21_600]);
    const { id, shopId } = await receivedRequest();
    const creditsAsked = fake.operations('SwapPointsCredit');
    for (let i = 0; i < MAX_PUSH_ATTEMPTS; i++) fake.inject({ kind: 'http500', apply: false }, 'SwapPointsCredit');
    expect((await assign(id, 60)).body).toMatchObject({ loyaltyPointsSuccess: false });
    const first = await ledgerOf(id);
    for (let attempt = 1; attempt <= MAX_PUSH_ATTEMPTS; attempt++) {
      if (attempt > 1) {
        await makeDue(first.id);
        expect(await pushDueCredits(t.ctx, { onlyId: first.id })).toEqual({ claimed: 1, succeeded: 0, failed: 1 });
      }
      const row = await ledgerRow(first.id);
      expect(row).toMatchObject({ push_status: 'failed', push_attempts: attempt, last_push_error: HTTP_500_ERROR });
      if (attempt < MAX_PUSH_ATTEMPTS) {
        const wait = secondsUntil(row.next_push_at);
        expect(wait).toBeGreaterThan(pushBackoffSeconds(attempt) - 30);
        expect(wait).toBeLessThanOrEqual(pushBackoffSeconds(attempt) + 1);
      } else expect(row.next_push_at).toBeNull();
    }
    expect(fake.operations('SwapPointsCredit') - creditsAsked).toBe(MAX_PUSH_ATTEMPTS);
    expect(fake.pendingFaults()).toBe(0);
    expect(fake.transactionsOf(shopId).map((x) => x.cents)).toEqual([500]);
    // given up: the worker leaves it for an admin
    expect((await pushDueCredits(t.ctx, { onlyId: first.id })).claimed).toBe(0);
  });

  test('a claimed row is leased: while the shop holds the answer nobody else pushes it, and it is credited once', async () => {
    const { id, shopId } = await receivedRequest();
    const answer = Promise.withResolvers<void>();
    fake.inject({ kind: 'slow', delayMs: 0, until: answer.promise }, 'SwapPointsCredit');
    const creditsAsked = fake.operations('SwapPointsCredit');
    const assigning = assign(id, 70);
    try {
      while (fake.operations('SwapPointsCredit') === creditsAsked) await Bun.sleep(5);
      // the shop has the credit and has not answered: the row is pending, leased and not due
      const inFlight = await ledgerOf(id);
      expect(inFlight.push_status).toBe('pending');
      expect(secondsUntil(inFlight.next_push_at)).toBeGreaterThan(t.ctx.settings.creditPushLeaseSeconds - 60);
      expect((await pushDueCredits(t.ctx, { onlyId: inFlight.id })).claimed).toBe(0);
      const retry = await t.request('POST', `/api/admin/credit-history/${inFlight.id}/retry`, { token: admin.token });
      expect(retry.status).toBe(409);
      expect(retry.body).toEqual({ error: 'This credit is being pushed to the shop right now; there is nothing to retry.' });
    } finally {
      answer.resolve();
    }
    expect((await assigning).body).toMatchObject({ loyaltyPointsSuccess: true });
    expect(fake.operations('SwapPointsCredit') - creditsAsked).toBe(1);
    expect(fake.transactionsOf(shopId).map((x) => x.cents)).toEqual([500, 7_000]);
    expect(await ledgerOf(id)).toMatchObject({ push_status: 'success', push_attempts: 1 });
  });
});
