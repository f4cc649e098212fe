import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { SHOPIFY_TOKEN } from '#tests/helpers/fake-shopify-backend.ts';
import { startFakeShopify, type FakeShopify } from '#tests/helpers/fake-shopify.ts';
import { createWarehouse, shippingBody, signInPerson, uniqueEmail, validRequest } from '#tests/helpers/fixtures.ts';
import { png, uploadForm } from '#tests/helpers/images.ts';

/** The whole trade-in through the API with SHOP_BACKEND=shopify: the credit lands in Shopify once. */
describe.each(databaseKinds())('a trade-in end to end on Shopify (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeShopify;
  beforeAll(async () => {
    fake = await startFakeShopify({ token: SHOPIFY_TOKEN });
    t = await createTestApp(kind, { SHOP_BACKEND: 'shopify', SHOPIFY_ADMIN_URL: fake.url, SHOPIFY_ADMIN_TOKEN: SHOPIFY_TOKEN, SHOPIFY_TIMEOUT_MS: '2000' });
  });
  afterAll(async () => {
    await t.close();
    fake.close();
  });

  test('sign in, request with an uploaded photo, approve, ship, receive, credit 250: Shopify balance +250 once, history Success, balance shown', async () => {
    const email = uniqueEmail('tradein');
    const gid = fake.addCustomer(email, { firstName: 'Kavya', lastName: 'Menon' });
    fake.creditDirectly(gid, 20); // credit the customer already had
    const customer = await signInPerson(t, email);
    const admin = await signInPerson(t, uniqueEmail('admin'), { admin: true });
    const ok = (res: { status: number; body: any }, status = 200) => {
      if (res.status !== status) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };

    const upload = ok(await t.request('POST', '/image/upload', { token: customer.token, body: uploadForm({ bytes: png(4, 3), name: 'cartridge.png', type: 'image/png' }) }));
    const created = ok(
      await t.request('POST', '/api/exchange', { token: customer.token, body: validRequest([{ url: upload.secure_url, publicId: upload.public_id }]) }),
      201,
    );
    const id = created.id as string;
    const warehouse = await createWarehouse(t, admin);
    ok(await t.request('PUT', `/api/admin/exchange-requests/${id}/status`, { token: admin.token, body: { status: 'approved', warehouseId: warehouse.id } }));
    ok(await t.request('POST', `/api/exchange/${id}/shipping`, { token: customer.token, body: shippingBody() }));
    ok(await t.request('PUT', `/api/admin/exchange-requests/${id}/transit`, { token: admin.token, body: { transitStatus: 'received' } }));

    const credited = ok(await t.request('PUT', `/api/admin/exchange-requests/${id}/credit`, { token: admin.token, body: { creditAmount: 250 } }));
    expect(credited.creditAmount).toBe(250);
    expect(credited.loyaltyPointsSuccess).toBe(true);
    expect(fake.balance(gid)).toBe(270);
    const ours = fake.transactionsOf(gid).filter((tx) => tx.cents === 25_000);
    expect(ours).toHaveLength(1);
    expect(fake.requests.find((r) => r.operation === 'SwapPointsCredit')?.variables).toEqual({
      id: gid,
      creditInput: { creditAmount: { amount: '250.00', currencyCode: 'INR' } },
    });

    const again = await t.request('PUT', `/api/admin/exchange-requests/${id}/credit`, { token: admin.token, body: { creditAmount: 250 } });
    expect(again.status).toBe(409);
    expect(fake.balance(gid)).toBe(270);
    expect(fake.operations('SwapPointsCredit')).toBe(1);

    const history = ok(await t.request('GET', '/api/admin/credit-history', { token: admin.token }));
    const record = history.find((r: { exchangeRequestId: string }) => r.exchangeRequestId === id);
    expect(record).toMatchObject({ amount: 250, currency: 'INR', loyaltyPointsSuccess: true, pushStatus: 'success', transactionId: ours[0]!.id, customerEmail: email });

    const balance = await t.request('GET', '/api/shopify/credit', { token: customer.token });
    expect([balance.status, balance.body]).toEqual([200, { creditAmount: 270, currency: 'INR' }]);
  });
});
