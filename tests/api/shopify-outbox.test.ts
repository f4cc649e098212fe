import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import { connectPostgres } from '#api/db/connect.ts';
import { openContext } from '#api/host.ts';
import { createLogger } from '#api/lib/log.ts';
import { pushDueCredits } from '#api/modules/credit/push.ts';
import { loadSettings } from '#api/settings.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '#tests/helpers/db.ts';
import { backendFor, IMPATIENT, ledgerRow, SHOPIFY_TOKEN } from '#tests/helpers/fake-shopify-backend.ts';
import { startFakeShopify, type FakeShopify } from '#tests/helpers/fake-shopify.ts';
import { uniqueEmail } from '#tests/helpers/fixtures.ts';

// generous for a loaded machine; the timeout test sets its own
const shopifyEnv = (fake: FakeShopify) => ({ SHOP_BACKEND: 'shopify', SHOPIFY_ADMIN_URL: fake.url, SHOPIFY_ADMIN_TOKEN: SHOPIFY_TOKEN, SHOPIFY_TIMEOUT_MS: '30000' });

/** The credit outbox (api/modules/credit/push.ts) pushing to the Shopify backend. */
describe.each(databaseKinds())('credit outbox to Shopify (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeShopify;
  beforeEach(async () => {
    fake = await startFakeShopify({ token: SHOPIFY_TOKEN });
    t = await createTestApp(kind, shopifyEnv(fake));
  });
  afterEach(async () => {
    await t.close();
    fake.close();
  });
  const rowOf = (id: number) => t.ctx.db.selectFrom('credit_ledger').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  test('a push that timed out after Shopify applied it is retried by the worker, which finds the credit: the balance rises once', async () => {
    const email = uniqueEmail('outbox');
    const gid = fake.addCustomer(email);
    const row = await ledgerRow(t.ctx.db, email, '250.00', gid);
    // this first push is the timeout test: the real Shopify backend with a short timeout, on the same
    // database; the shop applies the credit and holds its answer until the push has given up
    const quickShop = backendFor(fake, t.ctx.db, IMPATIENT).shop;
    const answer = Promise.withResolvers<void>();
    fake.inject({ kind: 'slow', delayMs: 0, until: answer.promise }, 'SwapPointsCredit');
    const first = await pushDueCredits({ ...t.ctx, shop: quickShop }, { onlyId: row.ledgerId }).finally(() => answer.resolve());
    expect(first).toEqual({ claimed: 1, succeeded: 0, failed: 1 });
    const failed = await rowOf(row.ledgerId);
    expect(failed.push_status).toBe('failed');
    expect(failed.last_push_error).toStartWith('No response from server');
    expect(new Date(failed.next_push_at!).getTime()).toBeGreaterThan(Date.now());
    expect(fake.balance(gid)).toBe(250);

    await t.ctx.db.updateTable('credit_ledger').set({ next_push_at: sql`now()` }).where('id', '=', row.ledgerId).execute(); // the backoff has passed
    expect(await pushDueCredits(t.ctx, { onlyId: row.ledgerId })).toEqual({ claimed: 1, succeeded: 1, failed: 0 });
    const done = await rowOf(row.ledgerId);
    expect(done.push_status).toBe('success');
    expect(done.external_transaction_id).toBe(fake.transactionsOf(gid)[0]!.id);
    expect(fake.balance(gid)).toBe(250);
    expect(fake.operations('SwapPointsCredit')).toBe(1);
  });

  test('a userErrors refusal fails the row for good with the message kept for the admin', async () => {
    const email = uniqueEmail('refused');
    const gid = fake.addCustomer(email);
    const row = await ledgerRow(t.ctx.db, email, '250.00', gid);
    fake.inject({ kind: 'userError', code: 'CREDIT_LIMIT_EXCEEDED', message: 'The operation would cause the account\'s credit limit to be exceeded.' }, 'SwapPointsCredit');
    await pushDueCredits(t.ctx, { onlyId: row.ledgerId });
    const failed = await rowOf(row.ledgerId);
    expect(failed.push_status).toBe('failed');
    expect(failed.next_push_at).toBeNull();
    expect(failed.last_push_error).toBe("Shopify refused the credit: The operation would cause the account's credit limit to be exceeded. (CREDIT_LIMIT_EXCEEDED)");
  });
});

/** Two SwapPoints servers over one PostgreSQL database, each with its own connection pool. */
describe.skipIf(!process.env.DATABASE_URL)('two server instances draining the outbox at once (postgres)', () => {
  let database: TestDatabase;
  let fake: FakeShopify;
  const instances: { ctx: AppContext; close: () => Promise<void> }[] = [];
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    fake = await startFakeShopify({ token: SHOPIFY_TOKEN });
    const settings = loadSettings({ JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing', LOG_LEVEL: 'warn', ...shopifyEnv(fake) });
    for (let i = 0; i < 2; i += 1) {
      const handle = connectPostgres(database.url!, createLogger('error'), 5);
      instances.push(await openContext(settings, { role: 'test', database: handle, log: createLogger('warn') }));
    }
  });
  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await database.drop();
    fake.close();
  });

  const drain = async (ctx: AppContext) => {
    let pushed = 0;
    for (;;) {
      const report = await pushDueCredits(ctx, { limit: 1 });
      if (report.claimed === 0) return pushed;
      pushed += report.claimed;
    }
  };

  test('one row, both at once: exactly one push reaches Shopify', async () => {
    const email = uniqueEmail('race');
    const gid = fake.addCustomer(email);
    const row = await ledgerRow(instances[0]!.ctx.db, email, '250.00', gid);
    const before = fake.operations('SwapPointsCredit');
    fake.inject({ kind: 'slow', delayMs: 100 }, 'SwapPointsCredit');
    const reports = await Promise.all(instances.map((i) => pushDueCredits(i.ctx, { onlyId: row.ledgerId })));
    expect(reports.map((r) => r.claimed).sort()).toEqual([0, 1]);
    expect(fake.operations('SwapPointsCredit') - before).toBe(1);
    expect(fake.balance(gid)).toBe(250);
  });

  test('twelve rows: every row is pushed exactly once, by one instance or the other, and both took part', async () => {
    const before = fake.operations('SwapPointsCredit');
    const customers = [uniqueEmail('a'), uniqueEmail('b'), uniqueEmail('c')].map((email) => ({ email, gid: fake.addCustomer(email) }));
    const rows = [];
    for (let i = 0; i < 12; i += 1) {
      const c = customers[i % 3]!;
      rows.push(await ledgerRow(instances[0]!.ctx.db, c.email, `${10 + i}.00`, c.gid));
    }
    // the first credit's answer is held until a second credit reaches the shop: the instance that
    // sent the first waits for it, so the second came from the other one, whatever the machine's load
    const secondArrived = Promise.withResolvers<void>();
    fake.inject({ kind: 'slow', delayMs: 0, until: secondArrived.promise }, 'SwapPointsCredit');
    const watch = setInterval(() => fake.operations('SwapPointsCredit') - before >= 2 && secondArrived.resolve(), 5);
    const [first, second] = await Promise.all(instances.map((i) => drain(i.ctx))).finally(() => (clearInterval(watch), secondArrived.resolve()));
    expect(first! + second!).toBe(12);
    expect(first).toBeGreaterThan(0);
    expect(second).toBeGreaterThan(0);
    expect(fake.operations('SwapPointsCredit') - before).toBe(12);
    const ledger = await instances[1]!.ctx.db.selectFrom('credit_ledger').selectAll().where('id', 'in', rows.map((r) => r.ledgerId)).execute();
    expect(ledger.every((r) => r.push_status === 'success' && r.push_attempts === 1)).toBe(true);
    expect(new Set(ledger.map((r) => r.external_transaction_id)).size).toBe(12);
    for (const [i, c] of customers.entries()) {
      const expected = [0, 1, 2, 3].reduce((sum, k) => sum + 10 + i + 3 * k, 0);
      expect(fake.balance(c.gid)).toBe(expected);
    }
  });
});
