import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { runDeadlines } from '#api/modules/deadlines/service.ts';
import { recordTrackingEvents } from '#api/modules/shipments/tracking.ts';
import { sendDueWhatsApp } from '#api/modules/whatsapp/worker.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { startFakeWhatsApp, type FakeWhatsApp } from '#tests/helpers/fake-whatsapp.ts';
import { labelledRequest, parcelDesk } from '#tests/helpers/parcels.ts';
import { createRequest, mailsTo, requestAt, RETURN_ADDRESS, shippingBody, signInPerson, type Person } from '#tests/helpers/fixtures.ts';

setDefaultTimeout(60_000);

let phones = 0;
const newPhone = () => `8${String(process.pid % 10_000).padStart(4, '0')}${String(++phones).padStart(5, '0')}`;

/**
 * The notices of revised offers, deadlines and prepaid labels reach a customer who opted in to
 * WhatsApp too, each with its template: offer waiting (and its reminder), ship reminder, label ready,
 * picked up, and a declined offer's item on its way back.
 */
describe.each(databaseKinds())('WhatsApp for offers, deadlines and labels (%s)', (kind) => {
  let fake: FakeWhatsApp;
  let t: TestApp;
  let admin: Person;
  let warehouseId: string;

  beforeAll(async () => {
    fake = startFakeWhatsApp();
    t = await createTestApp(kind, fake.env({ CARRIER: 'embedded' }));
    // the guide quotes an HP 88A, so a credit below it is an offer
    ({ admin, warehouseId } = await parcelDesk(t, { brand: 'HP', model: '88A', name: 'HP 88A Black Toner' }));
  });
  afterAll(async () => {
    await t.close();
    fake.close();
  });

  async function optedIn(language: 'en' | 'hi' = 'en') {
    const person = await signInPerson(t);
    const digits = newPhone();
    expect((await t.request('PUT', '/api/profile', { token: person.token, body: { phone: digits, whatsapp: true, language } })).status).toBe(200);
    return { ...person, to: `91${digits}` };
  }
  const templatesTo = async (to: string) => {
    await sendDueWhatsApp(t.ctx);
    return fake.messages.filter((m) => m.to === to).map((m) => m.name);
  };

  test('a prepaid label: label ready when it is made, picked up when the courier takes it', async () => {
    const customer = await optedIn();
    const { id, trackingNumber } = await labelledRequest(t, customer, admin, warehouseId);
    await recordTrackingEvents(t.ctx, 'embedded', [
      { trackingNumber, status: 'picked_up', at: new Date(), eventKey: 'pickup-1', description: null, location: 'Bengaluru' },
    ]);
    const sent = await templatesTo(customer.to);
    expect(sent).toEqual(expect.arrayContaining(['swappoints_request_approved', 'swappoints_label_ready', 'swappoints_picked_up']));
    const ready = fake.messages.find((m) => m.to === customer.to && m.name === 'swappoints_label_ready')!;
    expect(ready.params.at(-1)).toBe(`http://localhost:3000/api/exchange/${id}/label`);
  });

  test('a revised offer: offer waiting, with the amount and the date to answer by', async () => {
    const customer = await optedIn();
    const id = await createRequest(t, customer, { brand: 'HP', productName: 'HP 88A Toner', condition: 'like_new' });
    for (const [method, path, body, who] of [
      ['PUT', `/api/admin/exchange-requests/${id}/status`, { status: 'approved', warehouseId }, admin],
      ['POST', `/api/exchange/${id}/shipping`, shippingBody(), customer],
      ['PUT', `/api/admin/exchange-requests/${id}/transit`, { transitStatus: 'received' }, admin],
      ['PUT', `/api/admin/exchange-requests/${id}/credit`, { creditAmount: 400, reason: 'Cracked drum housing' }, admin],
    ] as const) {
      expect((await t.request(method, path, { token: who.token, body })).status).toBe(200);
    }
    expect(await templatesTo(customer.to)).toContain('swappoints_offer_waiting');
    const offer = fake.messages.find((m) => m.to === customer.to && m.name === 'swappoints_offer_waiting')!;
    expect(offer.params[0]).toBe('HP 88A Toner');
    expect(offer.params[1]).toContain('400');
  });

  test('a Hindi customer gets the offer in hi with the answer date written for hi-IN, as their mail gives it', async () => {
    const customer = await optedIn('hi');
    const id = await requestAt(t, 'received', customer, admin, warehouseId, 0, { brand: 'HP', productName: 'HP 88A Toner', condition: 'like_new' });
    const res = await t.request('PUT', `/api/admin/exchange-requests/${id}/credit`, { token: admin.token, body: { creditAmount: 400, reason: 'Cracked drum housing' } });
    expect(res.status).toBe(200);
    expect(await templatesTo(customer.to)).toContain('swappoints_offer_waiting');
    const offer = fake.messages.find((m) => m.to === customer.to && m.name === 'swappoints_offer_waiting')!;
    const by = new Intl.DateTimeFormat('hi-IN', { day: 'numeric', month: 'long', year: 'numeric', timeZone: t.ctx.settings.shopTimeZone }).format(new Date(res.body.offer.respondBy));
    expect(by).toMatch(/[\u0900-\u097F]/);
    expect([offer.language, offer.params]).toEqual(['hi', ['HP 88A Toner', '₹400', by, `http://localhost:3000/exchange/${id}`]]);
    const [mail] = await mailsTo(t, customer.email, 'offer_made');
    expect(mail!.text_body).toContain(by);
  });

  test('an approved request not shipped: the ship reminder goes out SHIP_REMINDER_DAYS before the deadline', async () => {
    const customer = await optedIn();
    await requestAt(t, 'approved', customer, admin, warehouseId);
    await runDeadlines(t.ctx, { asOf: new Date(Date.now() + 15 * 86_400_000) });
    expect(await templatesTo(customer.to)).toContain('swappoints_ship_reminder');
  });

  test("a declined offer's item sent back: return shipped, with the carrier and tracking number, in the customer's language", async () => {
    const customer = await optedIn('hi');
    const id = await requestAt(t, 'received', customer, admin, warehouseId, 0, { brand: 'HP', productName: 'HP 88A Toner', condition: 'like_new' });
    expect((await t.request('PUT', `/api/admin/exchange-requests/${id}/credit`, { token: admin.token, body: { creditAmount: 100, reason: 'Cracked housing' } })).status).toBe(200);
    const declined = await t.request('POST', `/api/exchange/${id}/offer/decline`, { token: customer.token, body: { choice: 'return', address: RETURN_ADDRESS } });
    expect(declined.status).toBe(200);
    const res = await t.request('POST', `/api/admin/exchange-requests/${id}/return`, { token: admin.token, body: { carrierName: 'India Post', trackingNumber: 'EE123456789IN' } });
    expect(res.status).toBe(200);
    expect(await templatesTo(customer.to)).toContain('swappoints_return_shipped');
    const sent = fake.messages.find((m) => m.to === customer.to && m.name === 'swappoints_return_shipped')!;
    expect([sent.language, sent.params]).toEqual(['hi', ['HP 88A Toner', 'India Post', 'EE123456789IN', `http://localhost:3000/exchange/${id}`]]);
  });
});
