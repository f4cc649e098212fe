import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { DEMO_CUSTOMER_EMAIL, seedDemo } from '#api/modules/demo/service.ts';
import { loadSettings } from '#api/settings.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { SHOPIFY_TOKEN } from '#tests/helpers/fake-shopify-backend.ts';
import { startFakeShopify, type FakeShopify } from '#tests/helpers/fake-shopify.ts';

describe('DEMO_SEED', () => {
  const base = { JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/sp-demo-settings' };
  const shopify = { SHOP_BACKEND: 'shopify', SHOPIFY_STORE: 'my-shop.myshopify.com', SHOPIFY_ADMIN_TOKEN: 'shpat_x' };
  test('is on by default only for the embedded database with the embedded shop (`bun run start`)', () => {
    expect(loadSettings(base).demoSeed).toBe(true);
    expect(loadSettings({ ...base, DATABASE_URL: 'postgres://db.example.com/swap' }).demoSeed).toBe(false);
    expect(loadSettings({ ...base, ...shopify }).demoSeed).toBe(false);
  });
  test('an explicit DEMO_SEED=true still loads it there; DEMO_SEED=false turns it off anywhere', () => {
    expect(loadSettings({ ...base, DATABASE_URL: 'postgres://db.example.com/swap', DEMO_SEED: 'true' }).demoSeed).toBe(true);
    expect(loadSettings({ ...base, ...shopify, DEMO_SEED: 'true' }).demoSeed).toBe(true);
    expect(loadSettings({ ...base, DEMO_SEED: 'false' }).demoSeed).toBe(false);
  });
});

describe.each(databaseKinds())('the demo on the embedded shop (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { DEMO_REQUESTS: 'false' });
  });
  afterAll(() => t.close());

  test("its customers come with their default addresses, so the prepaid label's form starts filled", async () => {
    await seedDemo(t.ctx);
    expect(await t.ctx.shop.customerAddress({ userId: crypto.randomUUID(), email: DEMO_CUSTOMER_EMAIL, shopCustomerId: null })).toEqual({
      name: 'Asha Rao', phone: '+919800000001', addressLine1: '14 MG Road', addressLine2: null, city: 'Bengaluru', state: 'Karnataka', postalCode: '560001', countryCode: 'IN',
    });
  });
});

describe.each(databaseKinds())('the demo on a Shopify shop (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeShopify;
  beforeAll(async () => {
    fake = await startFakeShopify({ token: SHOPIFY_TOKEN });
    t = await createTestApp(kind, { SHOP_BACKEND: 'shopify', SHOPIFY_ADMIN_URL: fake.url, SHOPIFY_ADMIN_TOKEN: SHOPIFY_TOKEN, DEMO_SEED: 'true' });
    for (const email of ['asha.rao@example.com', 'meera.iyer@example.com', 'kiran.patel@example.com', 'zoe.dsouza@example.com']) fake.addCustomer(email);
  });
  afterAll(async () => {
    await t.close();
    fake.close();
  });

  test('even when asked for, never pushes credit to the shop: no ledger row, no credit mutation', async () => {
    const report = await seedDemo(t.ctx);
    expect(report.requests).toBeGreaterThan(0);
    expect(await t.ctx.db.selectFrom('credit_ledger').select('id').execute()).toEqual([]);
    expect(fake.requests.filter((r) => r.operation === 'SwapPointsCredit')).toEqual([]);
    const stages = await t.ctx.db.selectFrom('exchange_requests').select(['status', 'transit_status']).execute();
    expect(stages.some((r) => r.transit_status === 'received')).toBe(true);
    expect(stages.some((r) => r.status === 'completed')).toBe(false);
  });
});
