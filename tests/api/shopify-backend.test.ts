import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { adminEndpoint } from '#api/integrations/shop/shopify-client.ts';
import { ShopError } from '#api/integrations/shop/types.ts';
import { loadSettings, SettingsError } from '#api/settings.ts';
import { backendFor, IMPATIENT, ledgerRow, SHOPIFY_TOKEN } from '#tests/helpers/fake-shopify-backend.ts';
import { startFakeShopify, type FakeShopify } from '#tests/helpers/fake-shopify.ts';
import { ALL_SCOPES } from '#tests/helpers/fake-shopify-schema.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '#tests/helpers/db.ts';

const USER_ERROR_CODES = [
  'ACCOUNT_NOT_FOUND',
  'CREDIT_LIMIT_EXCEEDED',
  'EXPIRES_AT_IN_PAST',
  'MISMATCHING_CURRENCY',
  'NEGATIVE_OR_ZERO_AMOUNT',
  'OWNER_NOT_FOUND',
  'UNSUPPORTED_CURRENCY',
];

describe('Shopify settings', () => {
  const base = { JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing', SHOP_BACKEND: 'shopify', SHOPIFY_STORE: 'my-shop.myshopify.com' };

  test('the Admin API address is https://{store}/admin/api/{version}/graphql.json, on the newest stable version by default', () => {
    const settings = loadSettings({ ...base, SHOPIFY_ADMIN_TOKEN: 'shpat_x' });
    expect(adminEndpoint(settings.shopify)).toBe('https://my-shop.myshopify.com/admin/api/2026-10/graphql.json');
  });

  test('SHOPIFY_ADMIN_URL replaces the whole address', () => {
    const settings = loadSettings({ ...base, SHOPIFY_ADMIN_TOKEN: 'shpat_x', SHOPIFY_ADMIN_URL: 'http://proxy.local:8080/shopify/graphql' });
    expect(adminEndpoint(settings.shopify)).toBe('http://proxy.local:8080/shopify/graphql');
  });

  test('a token, or a client id and secret, is required; a version is a quarter', () => {
    expect(() => loadSettings(base)).toThrow(SettingsError);
    expect(() => loadSettings({ ...base, SHOPIFY_CLIENT_ID: 'id' })).toThrow(/SHOPIFY_CLIENT_SECRET/);
    expect(() => loadSettings({ ...base, SHOPIFY_CLIENT_ID: 'id', SHOPIFY_CLIENT_SECRET: 'secret' })).not.toThrow();
    expect(() => loadSettings({ ...base, SHOPIFY_ADMIN_TOKEN: 'x', SHOPIFY_API_VERSION: '2026-11' })).toThrow(/SHOPIFY_API_VERSION/);
  });
});

describe.each(databaseKinds())('Shopify backend against a fake Admin API (%s)', (kind) => {
  let database: TestDatabase;
  let fake: FakeShopify;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.drop());
  beforeEach(async () => {
    fake = await startFakeShopify({ token: SHOPIFY_TOKEN });
  });
  afterEach(() => fake.close());
  const db = () => database.handle.db;

  describe('customer lookup', () => {
    test('a shop customer is found by email (any case), with their customer GID and name', async () => {
      const id = fake.addCustomer('asha@example.com', { firstName: 'Asha', lastName: 'Rao' });
      const { shop } = backendFor(fake, db());
      expect(await shop.findCustomer('Asha@Example.com')).toEqual({ shopCustomerId: id, email: 'asha@example.com', firstName: 'Asha', lastName: 'Rao' });
      expect(id).toMatch(/^gid:\/\/shopify\/Customer\/\d+$/);
    });

    test('an email Shopify does not know is no customer', async () => {
      const { shop } = backendFor(fake, db());
      expect(await shop.findCustomer('stranger@example.com')).toBeNull();
    });

    test('a wrong access token is a connection error, not "no such customer"', async () => {
      fake.addCustomer('asha@example.com');
      const { shop } = backendFor(fake, db(), { SHOPIFY_ADMIN_TOKEN: 'shpat_wrong_token_000000000000' });
      const error = await shop.findCustomer('asha@example.com').catch((e) => e);
      expect(error).toBeInstanceOf(ShopError);
      expect(error.kind).toBe('connection');
      expect(error.message).toBe('Error connecting to Shopify');
    });
  });

  describe('balance', () => {
    test("is the store credit account's balance in the shop's currency", async () => {
      const id = fake.addCustomer('bal@example.com');
      fake.creditDirectly(id, 120.5, 'INR');
      fake.creditDirectly(id, 40, 'USD');
      const { shop } = backendFor(fake, db());
      expect(await shop.getBalance({ userId: crypto.randomUUID(), email: 'bal@example.com', shopCustomerId: id })).toEqual({ amount: 120.5, currency: 'INR' });
    });

    test('is 0 in the shop currency when the customer has no store credit account yet', async () => {
      const id = fake.addCustomer('new@example.com');
      const { shop } = backendFor(fake, db());
      expect(await shop.getBalance({ userId: crypto.randomUUID(), email: 'new@example.com', shopCustomerId: id })).toEqual({ amount: 0, currency: 'INR' });
    });

    test('falls back to the email when the stored customer id is gone, and is "User not found in Shopify" when both are', async () => {
      const { shop } = backendFor(fake, db());
      const id = fake.addCustomer('moved@example.com');
      fake.creditDirectly(id, 75);
      const ref = { userId: crypto.randomUUID(), email: 'moved@example.com', shopCustomerId: 'gid://shopify/Customer/1' };
      expect((await shop.getBalance(ref)).amount).toBe(75);
      fake.removeCustomer('moved@example.com');
      const error = await shop.getBalance(ref).catch((e) => e);
      expect(error).toBeInstanceOf(ShopError);
      expect([error.kind, error.message]).toEqual(['not_found', 'User not found in Shopify']);
    });

    test('a timeout is "no response", a 500 a connection error', async () => {
      const id = fake.addCustomer('slow@example.com');
      const { shop } = backendFor(fake, db(), IMPATIENT);
      const ref = { userId: crypto.randomUUID(), email: 'slow@example.com', shopCustomerId: id };
      const answer = Promise.withResolvers<void>(); // held until the call has given up
      fake.inject({ kind: 'slow', delayMs: 0, until: answer.promise });
      const timedOut = await shop.getBalance(ref).catch((e) => e).finally(() => answer.resolve());
      expect([timedOut.kind, timedOut.message]).toEqual(['no_response', 'No response from server']);
      fake.inject({ kind: 'http500', apply: false });
      const failed = await shop.getBalance(ref).catch((e) => e);
      expect([failed.kind, failed.message]).toEqual(['connection', 'Error connecting to Shopify']);
    });
  });

  describe('credit push', () => {
    test('credits the customer once in the shop currency and returns the transaction id', async () => {
      const id = fake.addCustomer('push@example.com');
      const row = await ledgerRow(db(), 'push@example.com', '250.00', id);
      const { shop } = backendFor(fake, db());
      const outcome = await shop.pushCredit(row.push());
      const [tx] = fake.transactionsOf(id);
      expect(outcome).toEqual({ status: 'success', transactionId: tx!.id });
      expect(tx!.id).toMatch(/^gid:\/\/shopify\/StoreCreditAccountCreditTransaction\/\d+$/);
      expect(fake.balance(id)).toBe(250);
      expect(fake.transactionsOf(id)).toHaveLength(1);
      const sent = fake.requests.find((r) => r.operation === 'SwapPointsCredit')!;
      expect(sent.variables).toEqual({ id, creditInput: { creditAmount: { amount: '250.00', currencyCode: 'INR' } } });
    });

    test('finds the customer by email when no customer id was kept at sign-in', async () => {
      const id = fake.addCustomer('noid@example.com');
      const row = await ledgerRow(db(), 'noid@example.com', '10.00', null);
      const { shop } = backendFor(fake, db());
      expect((await shop.pushCredit(row.push())).status).toBe('success');
      expect(fake.balance(id)).toBe(10);
    });

    test('a customer gone from Shopify fails the push for good: "User not found in Shopify"', async () => {
      const row = await ledgerRow(db(), 'gone@example.com', '10.00', 'gid://shopify/Customer/999');
      const { shop } = backendFor(fake, db());
      const outcome = await shop.pushCredit(row.push());
      expect(outcome).toMatchObject({ status: 'failed', retryable: false });
      expect(outcome.status === 'failed' && outcome.error).toContain('User not found in Shopify');
      expect(fake.operations('SwapPointsCredit')).toBe(0);
    });

    test.each(USER_ERROR_CODES)('userErrors %s fail the push, not retryable, with Shopify\'s message kept for the admin', async (code) => {
      const id = fake.addCustomer(`${code.toLowerCase()}@example.com`);
      const row = await ledgerRow(db(), `${code.toLowerCase()}@example.com`, '50.00', id);
      const { shop } = backendFor(fake, db());
      fake.inject({ kind: 'userError', code, message: `Shopify says ${code}` }, 'SwapPointsCredit');
      const outcome = await shop.pushCredit(row.push());
      expect(outcome).toEqual({ status: 'failed', error: `Shopify refused the credit: Shopify says ${code} (${code})`, retryable: false });
      expect(fake.balance(id)).toBe(0);
    });

    test("Shopify's own userErrors come through too: an unsupported currency", async () => {
      const id = fake.addCustomer('usd@example.com');
      const row = await ledgerRow(db(), 'usd@example.com', '50.00', id);
      const { shop } = backendFor(fake, db());
      const outcome = await shop.pushCredit({ ...row.push(), currency: 'USD' });
      expect(outcome).toMatchObject({ status: 'failed', retryable: false });
      expect(outcome.status === 'failed' && outcome.error).toContain('(UNSUPPORTED_CURRENCY)');
    });

    test('with only the documented scopes, a retry whose earlier attempt left nothing credits once', async () => {
      fake.close();
      fake = await startFakeShopify({ token: SHOPIFY_TOKEN, scopes: ALL_SCOPES });
      const id = fake.addCustomer('scopes@example.com');
      const row = await ledgerRow(db(), 'scopes@example.com', '20.00', id);
      const { shop } = backendFor(fake, db());
      expect(await shop.findCustomer('scopes@example.com')).not.toBeNull();
      expect((await shop.pushCredit(row.push(true))).status).toBe('success');
      expect((await shop.getBalance(row.customer)).amount).toBe(20);
    });

    test('without the scope to read transactions, a retry of an unknown outcome does not credit blind', async () => {
      fake.close();
      fake = await startFakeShopify({ token: SHOPIFY_TOKEN, scopes: ALL_SCOPES.filter((s) => s !== 'read_store_credit_account_transactions') });
      const id = fake.addCustomer('blind@example.com');
      fake.creditDirectly(id, 5);
      const row = await ledgerRow(db(), 'blind@example.com', '20.00', id);
      const { shop } = backendFor(fake, db());
      const outcome = await shop.pushCredit(row.push(true));
      expect(outcome).toMatchObject({ status: 'failed', retryable: true });
      expect(outcome.status === 'failed' && outcome.error).toContain('ACCESS_DENIED');
      expect(fake.balance(id)).toBe(5);
    });
  });

  describe('Dev Dashboard apps (client credentials grant)', () => {
    test('the client id and secret are exchanged for a token, and for a new one when Shopify stops taking the old', async () => {
      fake.close();
      fake = await startFakeShopify({ clientCredentials: { id: 'client-id', secret: 'client-secret-value' } });
      fake.addCustomer('cc@example.com');
      const { shop, lines } = backendFor(fake, db(), { SHOPIFY_ADMIN_TOKEN: '', SHOPIFY_CLIENT_ID: 'client-id', SHOPIFY_CLIENT_SECRET: 'client-secret-value' });
      expect(await shop.findCustomer('cc@example.com')).not.toBeNull();
      fake.expireTokens();
      expect(await shop.findCustomer('cc@example.com')).not.toBeNull();
      const tokens = fake.requests.map((r) => r.token);
      expect(tokens).toHaveLength(3); // the first, the refused one, the one with the new token
      expect(new Set(tokens).size).toBe(2);
      expect(lines.join('\n')).not.toContain('client-secret-value');
    });

    test('wrong client credentials are a connection error', async () => {
      fake.close();
      fake = await startFakeShopify({ clientCredentials: { id: 'client-id', secret: 'right' } });
      const { shop } = backendFor(fake, db(), { SHOPIFY_ADMIN_TOKEN: '', SHOPIFY_CLIENT_ID: 'client-id', SHOPIFY_CLIENT_SECRET: 'wrong' });
      const error = await shop.findCustomer('x@example.com').catch((e) => e);
      expect([error.kind, error.message]).toEqual(['connection', 'Error connecting to Shopify']);
    });
  });
});
