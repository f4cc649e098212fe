import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { listAccess } from '#api/modules/access-log/queries.ts';
import { importCustomerExport } from '#api/modules/customers/service.ts';
import { eraseCustomer } from '#api/modules/privacy/erase.ts';
import { PARCEL_ON_ITS_WAY } from '#api/modules/privacy/rules.ts';
import { recordTrackingEvents } from '#api/modules/shipments/tracking.ts';
import { sendDueWhatsApp } from '#api/modules/whatsapp/worker.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { startFakeWhatsApp, type FakeWhatsApp } from '#tests/helpers/fake-whatsapp.ts';
import { createRequest, returnToShip, shippingBody, signInPerson, uniqueEmail, type Person } from '#tests/helpers/fixtures.ts';
import { labelledRequest, parcelDesk } from '#tests/helpers/parcels.ts';
import { whereFound } from '#tests/helpers/personal-data.ts';

setDefaultTimeout(60_000);

const PICKUP = { name: 'Kavya Pickup-Person', phone: '97411 55555', addressLine1: '7 Lavelle Road Pickup', city: 'Bengaluru', state: 'Karnataka', postalCode: '560001' };
const RETURN_TO = { name: 'Kavya Return-Person', addressLine1: '9 Return Lane', city: 'Mysuru', state: 'Karnataka', postalCode: '570001', country: 'India', phone: '+91 97411 66666' };
const WHATSAPP = '9741177777';
/** the default address the shop's export gives (kept for the pickup form) */
const SHOP_ADDRESS = { line1: '3 Imported Directory Road', phone: '+919741188888' };

/**
 * Issue 25 with the data issues 24, 27 and 29 added: an erasure also takes a prepaid label's pickup
 * address, phone and PDF, the default address kept from the shop's export, a declined offer's return
 * address, the WhatsApp number and messages; and it waits while a label is booked but not yet
 * received, or an offer waits for an answer.
 */
describe.each(databaseKinds())('erasure of labels, offers and WhatsApp data (%s)', (kind) => {
  let fake: FakeWhatsApp;
  let t: TestApp;
  let admin: Person;
  let warehouseId: string;

  beforeAll(async () => {
    fake = startFakeWhatsApp();
    t = await createTestApp(kind, fake.env({ CARRIER: 'embedded' }));
    // HP 305 (validRequest's product) for returnToShip's quote
    ({ admin, warehouseId } = await parcelDesk(t, { brand: 'HP', model: '88A', name: 'HP 88A Black Toner' }, { brand: 'HP', model: '305', name: 'HP 305 Black Ink' }));
  });
  afterAll(async () => {
    await t.close();
    fake.close();
  });

  const as = (who: Person, method: string, path: string, body?: unknown) => t.request(method, path, { token: who.token, body });

  test("pickup address, phone and label PDF, the shop export's address, return address, WhatsApp number and messages all go; a booked label or an open offer holds the erasure back", async () => {
    const email = uniqueEmail('erased');
    const imported = await importCustomerExport(
      t.ctx.db,
      `Customer ID,First Name,Last Name,Email,Default Address Address1,Default Address City,Default Address Province Code,Default Address Country Code,Default Address Zip,Default Address Phone\n'7303001001,Kavya,Rao,${email},${SHOP_ADDRESS.line1},Bengaluru,KA,IN,'560001,'${SHOP_ADDRESS.phone}\n`,
    );
    expect(imported).toMatchObject({ created: 1, problems: [] });
    const customer = await signInPerson(t, email);
    expect((await as(customer, 'PUT', '/api/profile', { phone: WHATSAPP, whatsapp: true })).status).toBe(200);

    // a prepaid label: booked, then the erasure waits for it
    const label = await labelledRequest(t, customer, admin, warehouseId, PICKUP);
    await expect(eraseCustomer(t.ctx, customer.email)).rejects.toMatchObject({ status: 409 });
    await recordTrackingEvents(t.ctx, 'embedded', [{ trackingNumber: label.trackingNumber, status: 'picked_up', at: new Date(), eventKey: 'p1', description: null, location: 'Bengaluru' }]);
    expect((await as(admin, 'PUT', `/api/admin/exchange-requests/${label.id}/transit`, { transitStatus: 'received' })).status).toBe(200);

    // a revised offer: waiting holds the erasure back; declined with a return address and sent back, it does not
    const offered = await createRequest(t, customer, { brand: 'HP', productName: 'HP 88A Toner', condition: 'like_new' });
    for (const [method, path, body, who] of [
      ['PUT', `/api/admin/exchange-requests/${offered}/status`, { status: 'approved', warehouseId }, admin],
      ['POST', `/api/exchange/${offered}/shipping`, shippingBody(), customer],
      ['PUT', `/api/admin/exchange-requests/${offered}/transit`, { transitStatus: 'received' }, admin],
      ['PUT', `/api/admin/exchange-requests/${offered}/credit`, { creditAmount: 400, reason: 'Cracked drum housing' }, admin],
    ] as const) {
      expect((await as(who, method, path, body)).status).toBe(200);
    }
    await expect(eraseCustomer(t.ctx, customer.email)).rejects.toMatchObject({ status: 409 });
    expect((await as(customer, 'POST', `/api/exchange/${offered}/offer/decline`, { choice: 'return', address: RETURN_TO })).status).toBe(200);
    await expect(eraseCustomer(t.ctx, customer.email)).rejects.toMatchObject({ status: 409 }); // the item is on its way back
    expect((await as(admin, 'POST', `/api/admin/exchange-requests/${offered}/return`, { carrierName: 'Blue Dart', trackingNumber: 'BDRETURN1' })).status).toBe(200);

    await sendDueWhatsApp(t.ctx);
    expect(fake.messages.some((m) => m.to === `91${WHATSAPP}`)).toBe(true);
    for (const needle of [PICKUP.addressLine1, RETURN_TO.addressLine1, WHATSAPP, SHOP_ADDRESS.line1, SHOP_ADDRESS.phone]) expect((await whereFound(t, needle)).length).toBeGreaterThan(0);

    const report = await eraseCustomer(t.ctx, customer.email, { recordAs: 'operator (cli)' });
    // the access log says who erased whom, by the pseudonym
    expect(await listAccess(t.ctx.db, { email: `${report.pseudonym}@erased.invalid` })).toEqual([expect.objectContaining({ actorEmail: 'operator (cli)', action: 'erasure' })]);
    for (const needle of [customer.email, PICKUP.name, PICKUP.addressLine1, '97411 55555', '9741155555', RETURN_TO.name, RETURN_TO.addressLine1, WHATSAPP, SHOP_ADDRESS.line1, SHOP_ADDRESS.phone]) {
      expect({ needle, found: await whereFound(t, needle) }).toEqual({ needle, found: [] });
    }
    // the shop's directory keeps its row (the shop's own), without the address
    expect(await t.ctx.db.selectFrom('shop_customers').select('email').where('email', '=', email).execute()).toEqual([{ email }]);
    const shipment = await t.ctx.db.selectFrom('shipments').select(['label_pdf', 'tracking_number']).where('request_id', '=', label.id).executeTakeFirstOrThrow();
    expect(shipment).toEqual({ label_pdf: null, tracking_number: label.trackingNumber });
  });

  test('a return booked with the carrier holds the erasure back until the carrier delivers it, a failed delivery too', async () => {
    const customer = await signInPerson(t);
    const id = await returnToShip(t, customer, admin, warehouseId);
    const booked = await as(admin, 'POST', `/api/admin/exchange-requests/${id}/return/book`);
    expect(booked.status).toBe(201);
    const step = (status: 'picked_up' | 'failed' | 'delivered') =>
      recordTrackingEvents(t.ctx, 'embedded', [{ trackingNumber: booked.body.trackingNumber, status, at: new Date(), eventKey: `return-${status}`, description: null, location: 'Kolkata' }]);
    const product = (await as(customer, 'GET', `/api/exchange/${id}`)).body.productName;
    for (const status of [null, 'picked_up', 'failed'] as const) {
      if (status) expect((await step(status)).recorded).toBe(1);
      const refused = await as(customer, 'DELETE', '/api/privacy/account');
      expect({ status, answer: refused.status, error: refused.body.error }).toEqual({ status, answer: 409, error: PARCEL_ON_ITS_WAY(product) });
    }
    await step('delivered');
    const erased = await as(customer, 'DELETE', '/api/privacy/account');
    expect([erased.status, erased.body.erased]).toEqual([200, true]);
  });
});
