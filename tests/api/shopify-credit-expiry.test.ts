import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sql } from 'kysely';
import { remindExpiringCredits } from '#api/modules/credit/expiry.ts';
import { loadSettings } from '#api/settings.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { SHOPIFY_TOKEN } from '#tests/helpers/fake-shopify-backend.ts';
import { startFakeShopify, type FakeShopify } from '#tests/helpers/fake-shopify.ts';
import { createWarehouse, mailsTo, requestAt, signInPerson, uniqueEmail, type Person } from '#tests/helpers/fixtures.ts';

// a database of its own per suite takes seconds on a loaded machine
setDefaultTimeout(60_000);

const DAY = 86_400_000;

/** Store credit customers notice: Shopify's own mail (notify), an expiry date, and our reminder before it. */
describe.each(databaseKinds())('Shopify credit with notify, expiry and a reminder (%s)', (kind) => {
  let fake: FakeShopify;
  let plain: TestApp;
  let expiring: TestApp;
  const setUp = async (t: TestApp) => {
    const [adminEmail, customerEmail] = [uniqueEmail('admin'), uniqueEmail('credit')];
    fake.addCustomer(adminEmail);
    const gid = fake.addCustomer(customerEmail);
    const admin = await signInPerson(t, adminEmail, { admin: true });
    const customer = await signInPerson(t, customerEmail);
    const warehouse = await createWarehouse(t, admin);
    return { admin, customer, gid, warehouseId: warehouse.id };
  };
  const shopify = { SHOP_BACKEND: 'shopify', SHOPIFY_ADMIN_TOKEN: SHOPIFY_TOKEN, SHOPIFY_TIMEOUT_MS: '2000' };

  beforeAll(async () => {
    fake = await startFakeShopify({ token: SHOPIFY_TOKEN });
    plain = await createTestApp(kind, { ...shopify, SHOPIFY_ADMIN_URL: fake.url });
    expiring = await createTestApp(kind, { ...shopify, SHOPIFY_ADMIN_URL: fake.url, SHOPIFY_NOTIFY_CUSTOMER: 'true', CREDIT_EXPIRY_DAYS: '30', CREDIT_REMINDER_DAYS: '7' });
  });
  afterAll(async () => {
    await plain.close();
    await expiring.close();
    fake.close();
  });

  test('by default the credit input has neither notify nor expiresAt, and the credit never expires', async () => {
    const { admin, customer, gid, warehouseId } = await setUp(plain);
    const id = await requestAt(plain, 'credited', customer, admin, warehouseId, 250);
    const input = fake.requests.filter((r) => r.operation === 'SwapPointsCredit').at(-1)!.variables.creditInput as Record<string, unknown>;
    expect(input).toEqual({ creditAmount: { amount: '250.00', currencyCode: 'INR' } });
    expect(fake.transactionsOf(gid).at(-1)).toMatchObject({ cents: 25_000, expiresAt: null, notify: false });
    const row = await plain.ctx.db.selectFrom('credit_ledger').select('expires_at').where('exchange_request_id', '=', id).executeTakeFirstOrThrow();
    expect(row.expires_at).toBeNull();
    expect(await remindExpiringCredits(plain.ctx)).toBe(0);
  });

  test('SHOPIFY_NOTIFY_CUSTOMER and CREDIT_EXPIRY_DAYS: notify: true and expiresAt 30 days on, which Shopify keeps', async () => {
    const { admin, customer, gid, warehouseId } = await setUp(expiring);
    const before = Date.now();
    const id = await requestAt(expiring, 'credited', customer, admin, warehouseId, 400);
    const input = fake.requests.filter((r) => r.operation === 'SwapPointsCredit').at(-1)!.variables.creditInput as Record<string, any>;
    expect(input.notify).toBe(true);
    const expiresAt = new Date(input.expiresAt).getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * DAY - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 30 * DAY + 1000);
    expect(fake.transactionsOf(gid).at(-1)).toMatchObject({ cents: 40_000, expiresAt: input.expiresAt, notify: true });
    const row = await expiring.ctx.db.selectFrom('credit_ledger').select(['expires_at', 'push_status']).where('exchange_request_id', '=', id).executeTakeFirstOrThrow();
    expect(row.push_status).toBe('success');
    expect(new Date(row.expires_at!).toISOString()).toBe(input.expiresAt);
  });

  test('a reminder goes out once, CREDIT_REMINDER_DAYS before a pushed credit expires; not for credit further out, already expired or not pushed', async () => {
    const { admin, customer, warehouseId } = await setUp(expiring);
    const soon = await requestAt(expiring, 'credited', customer, admin, warehouseId, 300);
    const later = await requestAt(expiring, 'credited', customer, admin, warehouseId, 200);
    const gone = await requestAt(expiring, 'credited', customer, admin, warehouseId, 100);
    fake.inject({ kind: 'userError', code: 'CREDIT_LIMIT_EXCEEDED' }, 'SwapPointsCredit');
    const refused = await requestAt(expiring, 'credited', customer, admin, warehouseId, 50);
    const move = (id: string, days: number) =>
      sql`update credit_ledger set expires_at = now() + make_interval(days => ${days}) where exchange_request_id = ${id}`.execute(expiring.ctx.db);
    // as the days pass (the fixture's clock): 3 days left, 10 days left, expired yesterday, and a push the shop refused
    await move(soon, 3);
    await move(later, 10);
    await move(gone, -1);
    await move(refused, 3);
    expect((await expiring.ctx.db.selectFrom('credit_ledger').select('push_status').where('exchange_request_id', '=', refused).executeTakeFirstOrThrow()).push_status).toBe('failed');

    expect(await remindExpiringCredits(expiring.ctx)).toBe(1);
    const mails = await mailsTo(expiring, customer.email, 'credit_expiry_reminder');
    expect(mails).toHaveLength(1);
    const when = new Date(Date.now() + 3 * DAY).toLocaleDateString('en-IN', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Asia/Kolkata' });
    expect(mails[0]!.subject).toBe(`Your ₹300.00 store credit expires on ${when}`);
    expect(mails[0]!.text_body).toContain(`The ₹300.00 in store credit you received for a trade-in expires on ${when}.`);
    expect(await remindExpiringCredits(expiring.ctx)).toBe(0);

    await move(later, 6);
    expect(await remindExpiringCredits(expiring.ctx)).toBe(1);
    expect((await mailsTo(expiring, customer.email, 'credit_expiry_reminder')).map((m) => m.subject.split(' ')[1])).toEqual(['₹300.00', '₹200.00']);
  });

  test('the settings are checked: CREDIT_EXPIRY_DAYS a whole number of days, notify needs API 2026-01 or later', () => {
    const base = { JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/swappoints-settings-test' };
    expect(loadSettings(base)).toMatchObject({ creditExpiryDays: null, creditReminderDays: 7, shopify: { notifyCustomer: false } });
    expect(() => loadSettings({ ...base, CREDIT_EXPIRY_DAYS: '0' })).toThrow('Invalid setting CREDIT_EXPIRY_DAYS');
    expect(() => loadSettings({ ...base, CREDIT_REMINDER_DAYS: 'soon' })).toThrow('Invalid setting CREDIT_REMINDER_DAYS');
    expect(() => loadSettings({ ...base, SHOPIFY_NOTIFY_CUSTOMER: 'true', SHOPIFY_API_VERSION: '2025-10' })).toThrow('Invalid setting SHOPIFY_API_VERSION');
  });
});
