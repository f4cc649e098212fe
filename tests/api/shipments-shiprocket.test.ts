import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { LATE_ANSWER_MS, startFakeShiprocket, type FakeShiprocket } from '#tests/helpers/fake-shiprocket.ts';
import { requestAt, signInPerson, type Person } from '#tests/helpers/fixtures.ts';
import { parcelDesk } from '#tests/helpers/parcels.ts';

const WEBHOOK_TOKEN = 'sr-webhook-token-0123456789';
const pickup = { name: 'Asha Rao', phone: '98450 12345', addressLine1: '14, 3rd Cross, Jayanagar', city: 'Bengaluru', state: 'Karnataka', postalCode: '560011' };

/**
 * The whole app with CARRIER=shiprocket against the fake Shiprocket on a real local port: the label a
 * customer asks for is booked there, its failures reach the customer as sentences with nothing kept,
 * and its tracking webhook (at /api/carriers/current/events: Shiprocket refuses its own name in the
 * address) moves the request.
 */
describe.each(databaseKinds())('prepaid labels through Shiprocket (%s)', (kind) => {
  let fake: FakeShiprocket;
  let t: TestApp;
  let admin: Person;
  let customer: Person;
  let warehouseId: string;

  beforeAll(async () => {
    fake = await startFakeShiprocket();
    t = await createTestApp(kind, fake.env(WEBHOOK_TOKEN));
    ({ admin, warehouseId } = await parcelDesk(t));
    customer = await signInPerson(t);
  });
  afterAll(async () => {
    await t.close();
    fake.stop();
  });

  const label = (id: string) => t.request('POST', `/api/exchange/${id}/label`, { token: customer.token, body: pickup });
  const shipmentRows = (id: string) => t.ctx.db.selectFrom('shipments').selectAll().where('request_id', '=', id).execute();

  test('a label is booked at Shiprocket (the customer as pickup, the warehouse as delivery) and its PDF is served', async () => {
    const id = await requestAt(t, 'approved', customer, admin, warehouseId);
    const booked = await label(id);
    expect(booked.status).toBe(201);
    const order = fake.orders.at(-1)!;
    expect(booked.body).toMatchObject({ trackingNumber: order.awb });
    expect(booked.body.carrier).toStartWith('Shiprocket');
    expect(order.body).toMatchObject({ pickup_customer_name: 'Asha Rao', pickup_pincode: '560011', pickup_city: 'Bengaluru' });
    const pdf = await t.app.handle(new Request(`${TEST_ORIGIN}/api/exchange/${id}/label`, { headers: { authorization: `Bearer ${customer.token}` } }));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toContain('application/pdf');
    expect(new TextDecoder().decode((await pdf.arrayBuffer()).slice(0, 5))).toBe('%PDF-');
  });

  test('Shiprocket refusing a step is a 502 with a sentence, the order is cancelled and nothing is kept; a retry books it', async () => {
    const id = await requestAt(t, 'approved', customer, admin, warehouseId);
    fake.failNext('/courier/assign/awb', { kind: 'http', status: 500 });
    const refused = await label(id);
    expect(refused.status).toBe(502);
    expect(refused.body.error).not.toMatch(/500|Oops|Shiprocket's own/);
    expect(await shipmentRows(id)).toEqual([]);
    expect(fake.orders.at(-1)!.cancelled).toBe(true);
    expect((await label(id)).status).toBe(201);
    expect(await shipmentRows(id)).toHaveLength(1);
  });

  test('Shiprocket not answering in time is a 503, nothing kept', async () => {
    const id = await requestAt(t, 'approved', customer, admin, warehouseId);
    fake.failNext('/orders/create/return', { kind: 'slow', delayMs: LATE_ANSWER_MS });
    const late = await label(id);
    expect(late.status).toBe(503);
    expect(await shipmentRows(id)).toEqual([]);
  });

  test("its tracking webhook, with the panel's token, moves the request to In Transit at pickup; a wrong token is a 401 and changes nothing", async () => {
    const id = await requestAt(t, 'approved', customer, admin, warehouseId);
    const awb = (await label(id)).body.trackingNumber as string;
    fake.scan(awb, { srStatus: 42, label: 'PICKED UP', date: '2026-11-24 10:04:00', location: 'Bengaluru' });
    const post = (token: string) =>
      t.request('POST', '/api/carriers/current/events', { headers: { 'x-api-key': token, 'content-type': 'application/json' }, body: fake.webhookBody(awb) });
    expect((await post('not-the-token-at-all')).status).toBe(401);
    expect((await t.request('GET', `/api/exchange/${id}`, { token: customer.token })).body.transitStatus).toBeNull();
    const taken = await post(WEBHOOK_TOKEN);
    expect(taken.status).toBe(200);
    const request = (await t.request('GET', `/api/exchange/${id}`, { token: customer.token })).body;
    expect(request).toMatchObject({ transitStatus: 'shipped', shippingDetails: { trackingNumber: awb, shippingDate: '2026-11-24' } });
    expect((await post(WEBHOOK_TOKEN)).body).toMatchObject({ recorded: 0 }); // the same scan again is recorded once
  });
});
