import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { notInShopMessage } from '#api/modules/auth/service.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { SHOPIFY_TOKEN } from '#tests/helpers/fake-shopify-backend.ts';
import { startFakeShopify, type FakeShopify } from '#tests/helpers/fake-shopify.ts';
import { uniqueEmail } from '#tests/helpers/fixtures.ts';

/** The app with SHOP_BACKEND=shopify: sign-in and the credit balance come from the (fake) Shopify Admin API. */
describe.each(databaseKinds())('the app on Shopify (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeShopify;
  beforeAll(async () => {
    fake = await startFakeShopify({ token: SHOPIFY_TOKEN });
    t = await createTestApp(kind, { SHOP_BACKEND: 'shopify', SHOPIFY_ADMIN_URL: fake.url, SHOPIFY_ADMIN_TOKEN: SHOPIFY_TOKEN, SHOPIFY_TIMEOUT_MS: '30000' });
  });
  afterAll(async () => {
    await t.close();
    fake.close();
  });

  describe('sign-in', () => {
    test("a Shopify customer gets a sign-in link, and the session's user keeps their customer GID", async () => {
      const email = uniqueEmail('shopper');
      const gid = fake.addCustomer(email, { firstName: 'Meera', lastName: 'Iyer' });
      const login = await t.request('POST', '/api/auth/login', { body: { email } });
      expect(login.status).toBe(202);
      expect(login.body.message).toBe(`Account found for ${email}. We've emailed you a sign-in link.`);
      const token = new URL(await t.lastSignInLink(email)).searchParams.get('token');
      const verify = await t.request('POST', '/api/auth/verify-email', { body: { email, token } });
      expect(verify.status).toBe(200);
      const user = await t.ctx.db.selectFrom('users').select(['name', 'shop_customer_id']).where('email', '=', email).executeTakeFirstOrThrow();
      expect(user).toEqual({ name: 'Meera Iyer', shop_customer_id: gid });
    });

    test('someone Shopify does not know gets the 422 not-in-shop message', async () => {
      const email = uniqueEmail('stranger');
      const login = await t.request('POST', '/api/auth/login', { body: { email } });
      expect(login.status).toBe(422);
      expect(login.body).toEqual({ error: notInShopMessage(email), notInShopify: true });
    });

    test('check-customer answers exists and the Shopify id, or 404 for a stranger', async () => {
      const email = uniqueEmail('check');
      const gid = fake.addCustomer(email);
      const found = await t.request('POST', '/api/shopify/check-customer', { body: { email } });
      expect([found.status, found.body]).toEqual([200, { exists: true, shopifyId: gid }]);
      const missing = await t.request('POST', '/api/shopify/check-customer', { body: { email: uniqueEmail('nobody') } });
      expect(missing.status).toBe(404);
      expect(missing.body.exists).toBe(false);
    });

    test('Shopify failing during sign-in is a server error, not "not in shop"', async () => {
      const email = uniqueEmail('down');
      fake.addCustomer(email);
      fake.inject({ kind: 'http500', apply: false });
      const login = await t.request('POST', '/api/auth/login', { body: { email } });
      expect(login.status).toBe(503);
      expect(login.body).toEqual({ error: 'Server error. Please try again later.', serverError: true });
    });

    test('Shopify failing when the link is opened is a 503 that leaves the link usable', async () => {
      const email = uniqueEmail('outage');
      fake.addCustomer(email);
      expect((await t.request('POST', '/api/auth/login', { body: { email } })).status).toBe(202);
      const token = new URL(await t.lastSignInLink(email)).searchParams.get('token');
      fake.inject({ kind: 'http500', apply: false }, 'SwapPointsFindCustomer');
      const down = await t.request('POST', '/api/auth/verify-email', { body: { email, token } });
      expect(down.status).toBe(503);
      expect(down.body.error).toBe('Server error. Please try again later.');
      expect(down.headers.get('set-cookie')).toBeNull();
      const back = await t.request('POST', '/api/auth/verify-email', { body: { email, token } });
      expect(back.status).toBe(200);
      expect(back.body.user.email).toBe(email);
    });
  });

  describe('GET /api/shopify/credit', () => {
    let email: string;
    let gid: string;
    let token: string;
    beforeAll(async () => {
      email = uniqueEmail('credit');
      gid = fake.addCustomer(email);
      token = await t.signIn(email);
    });

    test("is the customer's Shopify store credit in the shop currency", async () => {
      fake.creditDirectly(gid, 120.5);
      const res = await t.request('GET', '/api/shopify/credit', { token });
      expect([res.status, res.body]).toEqual([200, { creditAmount: 120.5, currency: 'INR' }]);
    });

    test('a connection error is 502 "Error connecting to Shopify"; a timeout 504 "No response from server"', async () => {
      fake.inject({ kind: 'http500', apply: false });
      const failed = await t.request('GET', '/api/shopify/credit', { token });
      expect([failed.status, failed.body]).toEqual([502, { error: 'Error connecting to Shopify', creditAmount: 0, currency: 'INR' }]);
      // the timeout itself: an app with a short one over the same database (the customer's session
      // works there too), the shop's answer held until it gave up; only that call meets the short
      // timeout, which a loaded machine could overrun on any other
      const quick = await createTestApp(kind, { SHOP_BACKEND: 'shopify', SHOPIFY_ADMIN_URL: fake.url, SHOPIFY_ADMIN_TOKEN: SHOPIFY_TOKEN, SHOPIFY_TIMEOUT_MS: '500' }, { sameDatabaseAs: t });
      try {
        const answer = Promise.withResolvers<void>();
        fake.inject({ kind: 'slow', delayMs: 0, until: answer.promise });
        const slow = await quick.request('GET', '/api/shopify/credit', { token }).finally(() => answer.resolve());
        expect([slow.status, slow.body]).toEqual([504, { error: 'No response from server', creditAmount: 0, currency: 'INR' }]);
      } finally {
        await quick.close();
      }
    });

    test('a customer gone from Shopify is 404 "User not found in Shopify"', async () => {
      // a customer of its own: the other tests here still need theirs in the shop
      const gone = uniqueEmail('gone');
      fake.addCustomer(gone);
      const goneToken = await t.signIn(gone);
      fake.removeCustomer(gone);
      const res = await t.request('GET', '/api/shopify/credit', { token: goneToken });
      expect([res.status, res.body]).toEqual([404, { error: 'User not found in Shopify', creditAmount: 0, currency: 'INR' }]);
    });
  });
});
