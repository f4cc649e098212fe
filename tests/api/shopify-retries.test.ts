import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import type { PushOutcome } from '#api/integrations/shop/types.ts';
import { backendFor, IMPATIENT, ledgerRow, SHOPIFY_TOKEN } from '#tests/helpers/fake-shopify-backend.ts';
import { startFakeShopify, type FakeShopify } from '#tests/helpers/fake-shopify.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '#tests/helpers/db.ts';

const errorOf = (outcome: PushOutcome) => (outcome.status === 'failed' ? outcome.error : '');

describe.each(databaseKinds())('Shopify credit push: throttling, failures and never crediting twice (%s)', (kind) => {
  let database: TestDatabase;
  let fake: FakeShopify;
  let customerId: string;
  let email: string;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.drop());
  beforeEach(async () => {
    fake = await startFakeShopify({ token: SHOPIFY_TOKEN });
    email = `c${crypto.randomUUID().slice(0, 8)}@example.com`;
    customerId = fake.addCustomer(email);
  });
  afterEach(() => fake.close());
  const db = () => database.handle.db;

  describe('throttling', () => {
    test('a THROTTLED answer waits as the cost extension says (10 points missing at 100/s), then the credit goes through once', async () => {
      const row = await ledgerRow(db(), email, '250.00', customerId);
      const { shop } = backendFor(fake, db());
      fake.inject({ kind: 'throttle' }, 'SwapPointsCredit');
      const started = performance.now();
      const outcome = await shop.pushCredit(row.push());
      expect(performance.now() - started).toBeGreaterThanOrEqual(95);
      expect(outcome.status).toBe('success');
      expect(fake.operations('SwapPointsCredit')).toBe(2);
      expect(fake.balance(customerId)).toBe(250);
    });

    test('HTTP 429 waits Retry-After, then the lookup goes through', async () => {
      const { shop } = backendFor(fake, db());
      fake.inject({ kind: 'http429', retryAfter: '0.2' });
      const started = performance.now();
      expect(await shop.findCustomer(email)).not.toBeNull();
      expect(performance.now() - started).toBeGreaterThanOrEqual(195);
    });

    test('throttled again and again, it gives up after a bounded number of tries; the push is retryable', async () => {
      const row = await ledgerRow(db(), email, '250.00', customerId);
      const { shop } = backendFor(fake, db());
      for (let i = 0; i < 5; i += 1) fake.inject({ kind: 'throttle' }, 'SwapPointsCredit');
      const outcome = await shop.pushCredit(row.push());
      expect(outcome).toMatchObject({ status: 'failed', retryable: true });
      expect(errorOf(outcome)).toContain('rate limiting');
      expect(fake.operations('SwapPointsCredit')).toBe(5);
      expect(fake.balance(customerId)).toBe(0);
    });
  });

  describe('unknown outcomes', () => {
    test('a 500 fails the push, retryable, as a connection error; the retry finds no earlier credit and credits once', async () => {
      const row = await ledgerRow(db(), email, '250.00', customerId);
      const { shop } = backendFor(fake, db());
      fake.inject({ kind: 'http500', apply: false }, 'SwapPointsCredit');
      const first = await shop.pushCredit(row.push());
      expect(first).toMatchObject({ status: 'failed', retryable: true });
      expect(errorOf(first)).toStartWith('Error connecting to Shopify: Shopify answered HTTP 500');
      expect(fake.balance(customerId)).toBe(0);
      const retry = await shop.pushCredit(row.push(true));
      expect(retry.status).toBe('success');
      expect(fake.balance(customerId)).toBe(250);
      expect(fake.transactionsOf(customerId)).toHaveLength(1);
    });

    test('a 500 after the credit was applied: the retry finds it and does not credit again', async () => {
      const row = await ledgerRow(db(), email, '250.00', customerId);
      const { shop } = backendFor(fake, db());
      fake.inject({ kind: 'http500', apply: true }, 'SwapPointsCredit');
      expect((await shop.pushCredit(row.push())).status).toBe('failed');
      const retry = await shop.pushCredit(row.push(true));
      expect(retry).toEqual({ status: 'success', transactionId: fake.transactionsOf(customerId)[0]!.id });
      expect(fake.balance(customerId)).toBe(250);
      expect(fake.operations('SwapPointsCredit')).toBe(1);
    });

    test('a timeout after the credit was applied: "No response from server", and the retry finds the credit; the balance rises exactly once', async () => {
      const row = await ledgerRow(db(), email, '250.00', customerId);
      // the shop applies the credit and holds its answer until the push has given up: a push that
      // waited for the answer instead of timing out would never end
      const { shop: impatient } = backendFor(fake, db(), IMPATIENT);
      const answer = Promise.withResolvers<void>();
      fake.inject({ kind: 'slow', delayMs: 0, until: answer.promise }, 'SwapPointsCredit');
      const first = await impatient.pushCredit(row.push()).finally(() => answer.resolve());
      expect(first).toMatchObject({ status: 'failed', retryable: true });
      expect(errorOf(first)).toStartWith('No response from server');
      expect(fake.balance(customerId)).toBe(250); // Shopify applied it; we just never heard

      // the retries are not about timing: the client with the settings' own timeout
      const { shop } = backendFor(fake, db());
      const retry = await shop.pushCredit(row.push(true));
      expect(retry).toEqual({ status: 'success', transactionId: fake.transactionsOf(customerId)[0]!.id });
      const again = await shop.pushCredit(row.push(true));
      expect(again).toEqual(retry);
      expect(fake.balance(customerId)).toBe(250);
      expect(fake.transactionsOf(customerId)).toHaveLength(1);
      expect(fake.operations('SwapPointsCredit')).toBe(1);
    });

    test('a connection reset after the credit was applied: retryable, and the retry does not credit again', async () => {
      const row = await ledgerRow(db(), email, '99.50', customerId);
      const { shop } = backendFor(fake, db());
      fake.inject({ kind: 'reset' }, 'SwapPointsCredit');
      const first = await shop.pushCredit(row.push());
      expect(first).toMatchObject({ status: 'failed', retryable: true });
      expect(errorOf(first)).toContain('ECONNRESET');
      expect((await shop.pushCredit(row.push(true))).status).toBe('success');
      expect(fake.balance(customerId)).toBe(99.5);
      expect(fake.operations('SwapPointsCredit')).toBe(1);
    });

    test('an answer that is not JSON is a connection error, retryable', async () => {
      const row = await ledgerRow(db(), email, '10.00', customerId);
      const { shop } = backendFor(fake, db());
      fake.inject({ kind: 'badJson' }, 'SwapPointsCredit');
      const outcome = await shop.pushCredit(row.push());
      expect(outcome).toMatchObject({ status: 'failed', retryable: true });
      expect(errorOf(outcome)).toContain('unreadable answer');
    });
  });

  describe('recognising our earlier credit (API before 2027-01: amount, currency, time, unclaimed)', () => {
    test('credits that are not ours are not taken for ours: claimed by another row, older than the row, an order refund, another amount', async () => {
      const other = await ledgerRow(db(), email, '250.00', customerId);
      const claimed = fake.creditDirectly(customerId, 250);
      await other.record(claimed.id);
      fake.creditDirectly(customerId, 250, 'INR', { createdAt: new Date(Date.now() - 86_400_000) });
      fake.creditDirectly(customerId, 250, 'INR', { event: 'ORDER_REFUND' });
      fake.creditDirectly(customerId, 249.99);
      fake.creditDirectly(customerId, 250, 'USD');
      const row = await ledgerRow(db(), email, '250.00', customerId);
      const { shop } = backendFor(fake, db());
      const before = fake.balance(customerId);
      const outcome = await shop.pushCredit(row.push(true));
      expect(outcome.status).toBe('success');
      expect(fake.balance(customerId)).toBe(before + 250);
      expect(fake.operations('SwapPointsCredit')).toBe(1);
    });

    test('two rows of the same amount that both lost their answer each claim their own credit', async () => {
      const a = await ledgerRow(db(), email, '100.00', customerId);
      const b = await ledgerRow(db(), email, '100.00', customerId);
      // Shopify applies each credit and holds its answer until our push has timed out
      const { shop: impatient } = backendFor(fake, db(), IMPATIENT);
      for (const row of [a, b]) {
        const answer = Promise.withResolvers<void>();
        fake.inject({ kind: 'slow', delayMs: 0, until: answer.promise }, 'SwapPointsCredit');
        const lost = await impatient.pushCredit(row.push()).finally(() => answer.resolve());
        expect(lost).toMatchObject({ status: 'failed', retryable: true });
      }
      expect(fake.balance(customerId)).toBe(200);
      const { shop } = backendFor(fake, db());
      const first = await shop.pushCredit(a.push(true));
      if (first.status !== 'success') throw new Error(errorOf(first));
      await a.record(first.transactionId);
      const second = await shop.pushCredit(b.push(true));
      if (second.status !== 'success') throw new Error(errorOf(second));
      expect(second.transactionId).not.toBe(first.transactionId);
      expect(fake.balance(customerId)).toBe(200);
      expect(fake.operations('SwapPointsCredit')).toBe(2);
    });

    test('history read page by page: our credit behind 60 later transactions is still found', async () => {
      const row = await ledgerRow(db(), email, '40.00', customerId);
      const { shop } = backendFor(fake, db());
      fake.inject({ kind: 'reset' }, 'SwapPointsCredit');
      await shop.pushCredit(row.push());
      for (let i = 0; i < 60; i += 1) fake.creditDirectly(customerId, 1, 'INR', { createdAt: new Date(Date.now() + 1000 + i) });
      expect((await shop.pushCredit(row.push(true))).status).toBe('success');
      expect(fake.balance(customerId)).toBe(100);
      expect(fake.operations('SwapPointsCreditHistory')).toBe(2);
    });
  });

  describe('API 2027-01 and later: credits carry a note naming their ledger row', () => {
    test('the push sends the note, and the retry recognises its credit by it, not by the amount', async () => {
      fake.close();
      fake = await startFakeShopify({ token: SHOPIFY_TOKEN, apiVersion: '2027-01' });
      customerId = fake.addCustomer(email);
      const row = await ledgerRow(db(), email, '250.00', customerId);
      const { shop } = backendFor(fake, db());
      // the first push gives up at its short timeout, after the shop applied the credit: its outcome is unknown
      const { shop: impatient } = backendFor(fake, db(), IMPATIENT);
      const answer = Promise.withResolvers<void>();
      fake.inject({ kind: 'slow', delayMs: 0, until: answer.promise }, 'SwapPointsCredit');
      expect((await impatient.pushCredit(row.push()).finally(() => answer.resolve())).status).toBe('failed');
      const [ours] = fake.transactionsOf(customerId);
      expect(ours!.note).toBe(`SwapPoints credit #${row.ledgerId} (swap.example.com)`);
      // a merchant's credit of the same amount, made earlier in the window, with a note of their own
      fake.creditDirectly(customerId, 250, 'INR', { note: 'goodwill', createdAt: new Date(Date.now() - 1000) });
      const retry = await shop.pushCredit(row.push(true));
      expect(retry).toEqual({ status: 'success', transactionId: ours!.id });
      expect(fake.balance(customerId)).toBe(500);
      expect(fake.operations('SwapPointsCredit')).toBe(1);
    });
  });

  describe('the access token', () => {
    test('never appears in a log line or a push error, even when Shopify echoes it back', async () => {
      const { shop, lines } = backendFor(fake, db());
      // a slow answer meets a client that gives up sooner: the timeout's own error and log line
      const impatient = backendFor(fake, db(), IMPATIENT);
      const outcomes: PushOutcome[] = [];
      const held = Promise.withResolvers<void>(); // the slow answer, until the client has given up
      for (const fault of [{ kind: 'echoToken' }, { kind: 'slow', delayMs: 0, until: held.promise }, { kind: 'reset' }, { kind: 'http500', apply: false }, { kind: 'throttle' }] as const) {
        const row = await ledgerRow(db(), email, '10.00', customerId);
        fake.inject(fault, 'SwapPointsCredit');
        outcomes.push(await (fault.kind === 'slow' ? impatient.shop : shop).pushCredit(row.push()));
        if (fault.kind === 'slow') held.resolve();
      }
      expect(errorOf(outcomes[1]!)).toContain('no response from Shopify');
      expect(fake.pendingFaults()).toBe(0);
      const wrong = backendFor(fake, db(), { SHOPIFY_ADMIN_TOKEN: `${SHOPIFY_TOKEN}-revoked` });
      await wrong.shop.findCustomer(email).catch(() => {});
      const everything = [...lines, ...impatient.lines, ...wrong.lines, ...outcomes.map(errorOf)].join('\n');
      expect(lines.length).toBeGreaterThan(3);
      expect(errorOf(outcomes[0]!)).toContain('Token [redacted] is not valid');
      expect(everything).not.toContain(SHOPIFY_TOKEN);
      expect(fake.requests.every((r) => r.token?.startsWith(SHOPIFY_TOKEN))).toBe(true);
    });
  });
});
