import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sql } from 'kysely';
import { pushAllDueCredits, pushDeadline } from '#api/modules/credit/push.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { SHOPIFY_TOKEN, shopifyEnv } from '#tests/helpers/fake-shopify-backend.ts';
import { startFakeShopify, type FakeShopify } from '#tests/helpers/fake-shopify.ts';
import { createWarehouse, requestAt, signInPerson, uniqueEmail, type Person } from '#tests/helpers/fixtures.ts';

setDefaultTimeout(60_000);

/** A lease short enough to outlast in a test; the push's deadline is half of it. */
const LEASE_S = 2;

describe.each(databaseKinds())('a credit push never outlives its lease (%s)', (kind) => {
  let fake: FakeShopify;
  let t: TestApp;
  let admin: Person;
  let warehouseId: string;

  beforeAll(async () => {
    fake = await startFakeShopify({ token: SHOPIFY_TOKEN });
    t = await createTestApp(kind, {
      ...shopifyEnv(fake),
      // one Shopify request may take longer than the whole lease: only the deadline keeps the push inside it
      SHOPIFY_TIMEOUT_MS: '10000',
      CREDIT_PUSH_LEASE_SECONDS: String(LEASE_S),
    });
    admin = await signInPerson(t, uniqueEmail('valuer'), { admin: true });
    warehouseId = (await createWarehouse(t, admin)).id;
  });
  afterAll(async () => {
    await t.close();
    fake.close();
  });

  async function receivedRequest() {
    const email = uniqueEmail('lease');
    const shopifyId = fake.addCustomer(email);
    const customer = await signInPerson(t, email);
    const id = await requestAt(t, 'received', customer, admin, warehouseId);
    const credits = () => fake.transactionsOf(shopifyId).filter((x) => x.kind === 'credit');
    const ledger = () => t.ctx.db.selectFrom('credit_ledger').selectAll().where('exchange_request_id', '=', id).executeTakeFirstOrThrow();
    return { id, credits, ledger };
  }
  const credit = (id: string, creditAmount: number) => t.request('PUT', `/api/admin/exchange-requests/${id}/credit`, { token: admin.token, body: { creditAmount } });
  const makeDue = (ledgerId: number) => t.ctx.db.updateTable('credit_ledger').set({ next_push_at: sql`now()` }).where('id', '=', ledgerId).execute();

  test('the deadline is well inside the lease', () => {
    const now = Date.now();
    expect(pushDeadline(300, now) - now).toBe(150_000);
    expect(pushDeadline(LEASE_S, now) - now).toBeLessThan(LEASE_S * 1000);
  });

  test('Shopify throttling for longer than the lease while a second worker takes over: the customer is credited once', async () => {
    const r = await receivedRequest();
    // Shopify asks for a 3 s wait (longer than the 2 s lease) before the credit may be sent
    fake.inject({ kind: 'http429', retryAfter: '3' }, 'SwapPointsCredit');
    const started = Date.now();
    const first = credit(r.id, 300);
    // another instance's background job, once the first worker's lease has run out
    await Bun.sleep(LEASE_S * 1000 + 300);
    const second = await pushAllDueCredits(t.ctx);
    const res = await first;
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(LEASE_S * 1000 + 2_000);
    // the first worker gave up inside its lease without sending; nothing was due for the second
    expect(second.claimed).toBe(0);
    expect(res.body).toMatchObject({ creditAmount: 300, loyaltyPointsSuccess: false });
    const failed = await r.ledger();
    expect(failed.push_status).toBe('failed');
    expect(failed.last_push_error).toContain('deadline');
    expect(r.credits()).toHaveLength(0);

    await makeDue(failed.id);
    expect(await pushAllDueCredits(t.ctx)).toMatchObject({ claimed: 1, succeeded: 1 });
    // anything the first worker might still send, after the 3 s Shopify asked for (and 2 s to spare), has arrived by now
    await Bun.sleep(Math.max(0, started + 5_000 - Date.now()));
    expect(r.credits()).toHaveLength(1);
    expect(r.credits()[0]!.cents).toBe(30_000);
    const done = await r.ledger();
    expect(done).toMatchObject({ push_status: 'success', external_transaction_id: r.credits()[0]!.id });
  });

  test('a shop that answers only after the lease is abandoned at the deadline, and the next worker finds the credit instead of giving it again', async () => {
    const r = await receivedRequest();
    // the credit is applied at once, but the answer comes 4 s later: past the lease
    fake.inject({ kind: 'slow', delayMs: 4_000 }, 'SwapPointsCredit');
    const started = Date.now();
    const res = await credit(r.id, 450);
    const took = Date.now() - started;
    expect(res.status).toBe(200);
    expect(res.body.loyaltyPointsSuccess).toBe(false);
    // the push returned inside its lease, not when the shop answered
    expect(took).toBeLessThan(LEASE_S * 1000);
    expect(r.credits()).toHaveLength(1); // it did reach the shop

    const row = await r.ledger();
    await makeDue(row.id);
    expect(await pushAllDueCredits(t.ctx)).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(r.credits()).toHaveLength(1);
    expect(await r.ledger()).toMatchObject({ push_status: 'success', external_transaction_id: r.credits()[0]!.id });
  });

  // the same app (no second database): these rows reference no request and no shop customer
  describe('the ledger holds each shop transaction once', () => {
    async function ledgerRow(externalId: string | null) {
      const user = await t.ctx.db
        .insertInto('users')
        .values({ email: uniqueEmail('idx'), name: null, shop_customer_id: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      return t.ctx.db
        .insertInto('credit_ledger')
        .values({ user_id: user.id, exchange_request_id: crypto.randomUUID(), type: 'exchange_credit', amount: '100', currency: 'INR', external_transaction_id: externalId })
        .returning('id')
        .executeTakeFirstOrThrow();
    }

    test('a second ledger row with the same external_transaction_id is refused by the database; rows without one are many', async () => {
      const tx = `gid://shopify/StoreCreditAccountCreditTransaction/${Date.now()}`;
      await ledgerRow(tx);
      let error: unknown;
      try {
        await ledgerRow(tx);
      } catch (e) {
        error = e;
      }
      expect((error as { code?: string } | undefined)?.code).toBe('23505');
      await ledgerRow(null);
      await ledgerRow(null);
      const count = await t.ctx.db.selectFrom('credit_ledger').select((eb) => eb.fn.countAll<number>().as('n')).where('external_transaction_id', '=', tx).executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(1);
    });
  });
});
