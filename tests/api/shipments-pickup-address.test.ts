import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { importCustomerExport } from '#api/modules/customers/service.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { SHOPIFY_TOKEN, shopifyEnv } from '#tests/helpers/fake-shopify-backend.ts';
import { startFakeShopify, type FakeShopify } from '#tests/helpers/fake-shopify.ts';
import { createWarehouse, requestAt, signInPerson, uniqueEmail, type Person } from '#tests/helpers/fixtures.ts';

/**
 * Issue 27, point 2: the prepaid label's form starts with the shop's default address for the
 * customer (GET /api/exchange/{id}/label/address), from the embedded directory's CSV import or from
 * Shopify; the owner only; a shop that fails leaves the form empty instead of failing it.
 */

const HEADER =
  'Customer ID,First Name,Last Name,Email,Accepts Email Marketing,Default Address Company,Default Address Address1,Default Address Address2,Default Address City,Default Address Province Code,Default Address Country Code,Default Address Zip,Default Address Phone,Phone,Accepts SMS Marketing,Total Spent,Total Orders,Note,Tax Exempt,Tags';

const EMPTY = { name: null, phone: null, addressLine1: null, addressLine2: null, city: null, state: null, postalCode: null, fromShop: false };

const addressOf = (t: TestApp, id: string, who: Person) => t.request('GET', `/api/exchange/${id}/label/address`, { token: who.token });

describe.each(databaseKinds())('the pickup address from the embedded shop (%s)', (kind) => {
  let t: TestApp;
  let admin: Person;
  let warehouseId: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { CARRIER: 'embedded' });
    admin = await signInPerson(t, 'pickup.admin@swappoints.example', { admin: true });
    warehouseId = (await createWarehouse(t, admin)).id;
  });
  afterAll(() => t.close());

  /** A customer of the shop's export (one row after the header), signed in, with an approved request. */
  async function imported(row: (email: string) => string) {
    const email = uniqueEmail('pickup');
    const report = await importCustomerExport(t.ctx.db, `${HEADER}\n${row(email)}\n`);
    expect(report.problems).toEqual([]);
    const customer = await signInPerson(t, email);
    return { customer, id: await requestAt(t, 'approved', customer, admin, warehouseId) };
  }

  test("a customer imported with a default address gets it: the state's name from the province code, PIN code and phone without the export's apostrophe; it books as it is", async () => {
    // no Default Address Phone: the customer's Phone is the fallback
    const { customer, id } = await imported((email) => `'7302001001,Meera,Iyer,${email},yes,,22 Anna Salai,Flat 4B,Chennai,TN,IN,'600002,,'+919800000003,no,3200.00,2,,no,`);
    const res = await addressOf(t, id, customer);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'Meera Iyer', phone: '+919800000003', addressLine1: '22 Anna Salai', addressLine2: 'Flat 4B', city: 'Chennai', state: 'Tamil Nadu', postalCode: '600002', fromShop: true });

    const { fromShop: _, ...body } = res.body;
    const label = await t.request('POST', `/api/exchange/${id}/label`, { token: customer.token, body });
    expect(label.status).toBe(201);
    const shown = await t.request('GET', `/api/exchange/${id}/shipment`, { token: customer.token });
    expect(shown.body.shipment.pickup).toEqual({ name: 'Meera Iyer', phone: '+919800000003', addressLine1: '22 Anna Salai', addressLine2: 'Flat 4B', city: 'Chennai', state: 'Tamil Nadu', postalCode: '600002' });
  });

  test("the address's own phone comes before the customer's Phone", async () => {
    const { customer, id } = await imported((email) => `'7302001002,Vikram,Singh,${email},no,Singh Prints,"Shop 3, Karol Bagh",,New Delhi,DL,IN,'110005,'+91 98100 00002,'+919800000002,no,1.00,1,,no,`);
    expect((await addressOf(t, id, customer)).body).toMatchObject({ phone: '+91 98100 00002', addressLine1: 'Shop 3, Karol Bagh', state: 'Delhi', postalCode: '110005' });
  });

  test("no address in the shop: only what SwapPoints knows, the name from the directory and the profile's phone", async () => {
    const { customer, id } = await imported((email) => `'7302001003,Priya,Nair,${email},no,,,,,,,,,,no,0.00,0,,no,`);
    expect((await addressOf(t, id, customer)).body).toEqual({ ...EMPTY, name: 'Priya Nair' });
    expect((await t.request('PUT', '/api/profile', { token: customer.token, body: { phone: '98450 11111', whatsapp: false } })).status).toBe(200);
    expect((await addressOf(t, id, customer)).body).toEqual({ ...EMPTY, name: 'Priya Nair', phone: '+919845011111' });
  });

  test("an address outside the shop's country is no pickup address; a field longer than the form takes is left to type", async () => {
    const abroad = await imported((email) => `'7302001004,Sam,Lee,${email},no,,1 Market St,,San Francisco,CA,US,'94105,'+14155550100,,no,1.00,1,,no,`);
    expect((await addressOf(t, abroad.id, abroad.customer)).body).toEqual({ ...EMPTY, name: 'Sam Lee' });
    const long = await imported((email) => `'7302001005,Anu,Das,${email},no,,${'Long Road '.repeat(25)},,Kochi,KL,IN,'682001,,,no,1.00,1,,no,`);
    expect((await addressOf(t, long.id, long.customer)).body).toMatchObject({ addressLine1: null, city: 'Kochi', state: 'Kerala', postalCode: '682001', fromShop: true });
  });

  test("for the request's owner only: 404 for another customer and for an admin, 401 without a session; 409 when labels are not offered", async () => {
    const { customer, id } = await imported((email) => `'7302001006,Kiran,Patel,${email},yes,,9 Ring Road,,Ahmedabad,GJ,IN,'380001,,,no,1.00,1,,no,`);
    const other = await signInPerson(t);
    for (const who of [other, admin]) {
      const res = await addressOf(t, id, who);
      expect(res.status).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain('Ring Road');
    }
    expect((await t.request('GET', `/api/exchange/${id}/label/address`)).status).toBe(401);
    expect((await addressOf(t, 'not-a-uuid', customer)).status).toBe(404);
    const carrier = t.ctx.carrier;
    t.ctx.carrier = null;
    try {
      const res = await addressOf(t, id, customer);
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('Prepaid labels are not offered by this shop. Please ship the item yourself and add the shipping details.');
    } finally {
      t.ctx.carrier = carrier;
    }
  });
});

describe.each(databaseKinds())('the pickup address from Shopify (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeShopify;
  let admin: Person;
  let warehouseId: string;

  beforeAll(async () => {
    fake = await startFakeShopify({ token: SHOPIFY_TOKEN });
    t = await createTestApp(kind, { ...shopifyEnv(fake), SHOPIFY_TIMEOUT_MS: '30000', CARRIER: 'embedded' });
    admin = await signInPerson(t, 'pickup.shopify.admin@swappoints.example', { admin: true });
    warehouseId = (await createWarehouse(t, admin)).id;
  });
  afterAll(async () => {
    await t.close();
    fake.close();
  });

  async function shopper(details: Parameters<FakeShopify['addCustomer']>[1]) {
    const email = uniqueEmail('shopper');
    fake.addCustomer(email, details);
    const customer = await signInPerson(t, email);
    return { customer, id: await requestAt(t, 'approved', customer, admin, warehouseId) };
  }

  test("the customer's default address in Shopify fills the form; without a phone on it, the customer's own phone", async () => {
    const { customer, id } = await shopper({
      firstName: 'Asha',
      lastName: 'Rao',
      phone: '+919800000001',
      address: { firstName: 'Asha', lastName: 'Rao', address1: '14 MG Road', address2: null, city: 'Bengaluru', province: 'Karnataka', provinceCode: 'KA', zip: '560001', countryCodeV2: 'IN', phone: null },
    });
    const res = await addressOf(t, id, customer);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'Asha Rao', phone: '+919800000001', addressLine1: '14 MG Road', addressLine2: null, city: 'Bengaluru', state: 'Karnataka', postalCode: '560001', fromShop: true });
    expect(fake.requests.filter((r) => r.operation === 'SwapPointsCustomerAddress').at(-1)?.variables).toEqual({ identifier: { id: fake.customerId(customer.email) } });
  });

  test('a customer with no default address in Shopify gets an empty suggestion with their name', async () => {
    const { customer, id } = await shopper({ firstName: 'Zoë', lastName: "D'Souza" });
    expect((await addressOf(t, id, customer)).body).toEqual({ ...EMPTY, name: "Zoë D'Souza" });
  });

  test('Shopify down: 200 with what SwapPoints knows (the name), never a 5xx; once it is back, the address', async () => {
    const { customer, id } = await shopper({ firstName: 'Rahul', lastName: 'Sharma', address: { address1: '45 Civil Lines', city: 'Jaipur', provinceCode: 'RJ', zip: '302006', countryCodeV2: 'IN' } });
    fake.injectUntilCleared({ kind: 'http500', apply: false }, 'SwapPointsCustomerAddress');
    try {
      const res = await addressOf(t, id, customer);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...EMPTY, name: 'Rahul Sharma' });
    } finally {
      fake.clearFaults();
    }
    // back up: the province code alone gives the state's name
    expect((await addressOf(t, id, customer)).body).toMatchObject({ addressLine1: '45 Civil Lines', state: 'Rajasthan', fromShop: true });
  });

  test('a slow Shopify is given up at the deadline the form waits for (a ShopError the route turns into an empty form), not at the 30 s timeout', async () => {
    const email = uniqueEmail('slow');
    fake.addCustomer(email, { address: { address1: '1 Slow Lane', city: 'Pune', zip: '411001', countryCodeV2: 'IN' } });
    fake.inject({ kind: 'slow', delayMs: 3_000 }, 'SwapPointsCustomerAddress');
    const started = Date.now();
    const error = await t.ctx.shop.customerAddress({ userId: crypto.randomUUID(), email, shopCustomerId: null }, { deadline: Date.now() + 300 }).catch((e) => e);
    expect(error).toMatchObject({ name: 'ShopError', kind: 'no_response' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
