import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sql } from 'kysely';
import { PDFDocument } from 'pdf-lib';
import { isEmbeddedAwb } from '#api/integrations/carriers/embedded.ts';
import type { TrackingEvent } from '#api/integrations/carriers/types.ts';
import { NO_RETURN_TO_SHIP, RETURN_ALREADY_SHIPPED, RETURN_BEING_BOOKED } from '#api/modules/credit/rules.ts';
import { pollLateTracking } from '#api/modules/shipments/poll.ts';
import { listShipments } from '#api/modules/shipments/queries.ts';
import { NO_RETURN_LABEL, RETURNS_BY_HAND } from '#api/modules/shipments/rules.ts';
import { recordTrackingEvents } from '#api/modules/shipments/tracking.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { parcelDesk } from '#tests/helpers/parcels.ts';
import { fakeLabelPdf, LATE_ANSWER_MS, startFakeShiprocket, type FakeShiprocket } from '#tests/helpers/fake-shiprocket.ts';
import { mailsTo, pdfOf, requestAt, RETURN_ADDRESS, returnToShip, signInPerson, type Person } from '#tests/helpers/fixtures.ts';

/**
 * "Book the return" (issue 24): a declined offer's item sent back through the carrier, from the
 * request's warehouse to the address the customer gave, recorded as the manual form records it.
 */

const book = (t: TestApp, who: Person, id: string) => t.request('POST', `/api/admin/exchange-requests/${id}/return/book`, { token: who.token });
const outboundRows = (t: TestApp, id: string) => t.ctx.db.selectFrom('shipments').selectAll().where('request_id', '=', id).where('direction', '=', 'outbound').execute();
const typesOf = async (t: TestApp, who: Person, id: string) => (await t.request('GET', `/api/exchange/${id}`, { token: who.token })).body.events.map((e: { type: string }) => e.type) as string[];

/** An admin, a customer and a warehouse, with validRequest's HP 305 in the guide (so returnToShip's request has a quote). */
async function setUp(t: TestApp) {
  return { ...(await parcelDesk(t, { brand: 'HP', model: '305', name: 'HP 305 Black Ink' })), customer: await signInPerson(t) };
}

describe.each(databaseKinds())('returns booked with the embedded carrier (%s)', (kind) => {
  let t: TestApp;
  let admin: Person;
  let customer: Person;
  let warehouseId: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { CARRIER: 'embedded' });
    ({ admin, customer, warehouseId } = await setUp(t));
  });
  afterAll(() => t.close());

  test('Book the return: 201 with the AWB; the warehouse is the pickup; recorded, timelined and mailed as the manual form does; the admin gets its label', async () => {
    const id = await returnToShip(t, customer, admin, warehouseId);
    const mailsBefore = (await mailsTo(t, customer.email, 'return_shipped')).length;
    const res = await book(t, admin, id);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ carrier: 'SwapPoints Parcels', trackingNumber: expect.any(String), labelUrl: `${TEST_ORIGIN}/api/admin/exchange-requests/${id}/return/label` });
    expect(isEmbeddedAwb(res.body.trackingNumber)).toBe(true);

    const [row] = await outboundRows(t, id);
    expect(row).toMatchObject({ state: 'booked', carrier: 'embedded', tracking_number: res.body.trackingNumber, pickup_name: 'Suresh Kumar', pickup_line1: 'Plot 18, Peenya Industrial Area', pickup_postal_code: '560058' });
    const request = (await t.request('GET', `/api/exchange/${id}`, { token: customer.token })).body;
    expect(request.offer.returnShipment).toMatchObject({ carrierName: 'SwapPoints Parcels', trackingNumber: res.body.trackingNumber });
    const returned = request.events.filter((e: { type: string }) => e.type === 'returned');
    expect(returned).toHaveLength(1);
    expect(returned[0].note).toBe(`Sent back to the customer with SwapPoints Parcels, tracking ${res.body.trackingNumber}`);
    const mails = await mailsTo(t, customer.email, 'return_shipped');
    expect(mails).toHaveLength(mailsBefore + 1);
    expect(mails.at(-1)!.text_body).toContain(`with SwapPoints Parcels, tracking number ${res.body.trackingNumber}`);

    const shown = (await t.request('GET', `/api/exchange/${id}/shipment`, { token: customer.token })).body;
    expect(shown).toMatchObject({ shipment: null, returnShipment: { carrier: 'SwapPoints Parcels', trackingNumber: res.body.trackingNumber, status: null, events: [] } });

    const label = await pdfOf(t, `/api/admin/exchange-requests/${id}/return/label`, admin.token);
    expect([label.status, label.type]).toEqual([200, 'application/pdf']);
    const doc = await PDFDocument.load(label.bytes);
    expect([doc.getPageCount(), doc.getTitle()]).toEqual([1, `Return to customer ${res.body.trackingNumber}`]);
    expect((await t.request('GET', `/api/admin/exchange-requests/${id}/return/label`, { token: customer.token })).status).toBe(403);
    expect((await t.request('GET', `/api/exchange/${id}/label`, { token: admin.token })).status).toBe(404); // the prepaid label is another parcel
  });

  test('booking again answers the same return with 200: one shipment, one mail, one timeline entry; the manual form then says it shipped', async () => {
    const id = await returnToShip(t, customer, admin, warehouseId);
    const first = await book(t, admin, id);
    const again = await book(t, admin, id);
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body).toEqual(first.body);
    expect(await outboundRows(t, id)).toHaveLength(1);
    expect((await typesOf(t, customer, id)).filter((type) => type === 'returned')).toHaveLength(1);
    const byHand = await t.request('POST', `/api/admin/exchange-requests/${id}/return`, { token: admin.token, body: { carrierName: 'DTDC', trackingNumber: 'D1' } });
    expect([byHand.status, byHand.body]).toEqual([409, { error: RETURN_ALREADY_SHIPPED }]);
  });

  test('calls racing: exactly one books (201), the others answer its return (200); one shipment, one mail', async () => {
    const id = await returnToShip(t, customer, admin, warehouseId);
    const mailsBefore = (await mailsTo(t, customer.email, 'return_shipped')).length;
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => book(t, admin, id)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.trackingNumber)).size).toBe(1);
    expect(await t.ctx.db.selectFrom('shipments').select('id').where('request_id', '=', id).execute()).toHaveLength(1);
    expect(await mailsTo(t, customer.email, 'return_shipped')).toHaveLength(mailsBefore + 1);
  });

  test('409 for a request with no return to ship (offer waiting, recycled, never offered) and for one shipped by hand; 404 for an unknown id', async () => {
    const received = await requestAt(t, 'received', customer, admin, warehouseId);
    expect((await book(t, admin, received)).body).toEqual({ error: NO_RETURN_TO_SHIP });
    expect((await t.request('PUT', `/api/admin/exchange-requests/${received}/credit`, { token: admin.token, body: { creditAmount: 100, reason: 'Scratched' } })).status).toBe(200);
    const waiting = await book(t, admin, received);
    expect([waiting.status, waiting.body]).toEqual([409, { error: NO_RETURN_TO_SHIP }]);
    expect((await t.request('POST', `/api/exchange/${received}/offer/decline`, { token: customer.token, body: { choice: 'recycle' } })).status).toBe(200);
    expect((await book(t, admin, received)).status).toBe(409);

    const byHand = await returnToShip(t, customer, admin, warehouseId);
    expect((await t.request('POST', `/api/admin/exchange-requests/${byHand}/return`, { token: admin.token, body: { carrierName: 'India Post', trackingNumber: 'EE1IN' } })).status).toBe(200);
    expect((await book(t, admin, byHand)).body).toEqual({ error: RETURN_ALREADY_SHIPPED });
    expect(await outboundRows(t, byHand)).toEqual([]);
    for (const bad of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '%00']) expect((await book(t, admin, bad)).status).toBe(404);
    expect((await t.request('GET', `/api/admin/exchange-requests/${byHand}/return/label`, { token: admin.token })).body).toEqual({ error: NO_RETURN_LABEL });
  });

  test('a customer cannot book or read the return (403), nobody signed out can (401)', async () => {
    const id = await returnToShip(t, customer, admin, warehouseId);
    expect((await book(t, customer, id)).status).toBe(403);
    expect((await t.request('POST', `/api/admin/exchange-requests/${id}/return/book`)).status).toBe(401);
    expect(await outboundRows(t, id)).toEqual([]);
  });

  test('while a booking holds its reservation the manual form waits its turn (409); a reservation past its lease does not block it', async () => {
    const id = await returnToShip(t, customer, admin, warehouseId);
    const reserve = (age: string) =>
      sql`insert into shipments (request_id, direction, carrier, reservation, reserved_at, pickup_name, pickup_phone, pickup_line1, pickup_city, pickup_state, pickup_postal_code)
          values (${id}, 'outbound', 'embedded', 'in-flight', now() - ${age}::interval, 'A', '8040001800', 'B', 'C', 'D', '560058')
          on conflict (request_id, direction) do update set reserved_at = excluded.reserved_at`.execute(t.ctx.db);
    await reserve('5 seconds');
    const manual = () => t.request('POST', `/api/admin/exchange-requests/${id}/return`, { token: admin.token, body: { carrierName: 'India Post', trackingNumber: 'EE2IN' } });
    expect((await manual()).body).toEqual({ error: RETURN_BEING_BOOKED });
    await reserve('1 hour');
    expect((await manual()).status).toBe(200);
  });

  test('with no carrier configured (CARRIER=none) booking is 409 with a sentence and the manual form still records it', async () => {
    const id = await returnToShip(t, customer, admin, warehouseId);
    const carrier = t.ctx.carrier;
    t.ctx.carrier = null;
    try {
      const res = await book(t, admin, id);
      expect([res.status, res.body]).toEqual([409, { error: RETURNS_BY_HAND }]);
      expect((await t.request('GET', `/api/exchange/${id}/shipment`, { token: admin.token })).body).toMatchObject({ labelsOffered: false, returnShipment: null });
    } finally {
      t.ctx.carrier = carrier;
    }
    expect((await t.request('POST', `/api/admin/exchange-requests/${id}/return`, { token: admin.token, body: { carrierName: 'India Post', trackingNumber: 'EE3IN' } })).status).toBe(200);
  });

  test("the return's tracking: each step once on the timeline, never back; the request keeps its own shipping; the customer reads the latest step", async () => {
    const id = await returnToShip(t, customer, admin, warehouseId);
    const awb = (await book(t, admin, id)).body.trackingNumber as string;
    const step = (status: TrackingEvent['status'], at: string): TrackingEvent => ({ trackingNumber: awb, status, at: new Date(at), eventKey: `${status}@${at}`, description: null, location: 'Kolkata' });
    const before = (await t.request('GET', `/api/exchange/${id}`, { token: customer.token })).body;
    const pickedUpMails = (await mailsTo(t, customer.email, 'picked_up')).length;

    expect((await recordTrackingEvents(t.ctx, 'embedded', [step('picked_up', '2026-11-26T05:00:00Z'), step('delivered', '2026-11-28T09:00:00Z')])).recorded).toBe(2);
    expect((await recordTrackingEvents(t.ctx, 'embedded', [step('picked_up', '2026-11-26T05:00:00Z'), step('in_transit', '2026-11-27T05:00:00Z')])).recorded).toBe(1);

    const after = (await t.request('GET', `/api/exchange/${id}`, { token: customer.token })).body;
    const tracking = after.events.filter((e: { type: string }) => e.type === 'tracking').map((e: { note: string }) => e.note);
    expect(tracking).toEqual([
      `Return: Collected from the warehouse at Kolkata (SwapPoints Parcels, ${awb})`,
      `Return: Delivered to the return address at Kolkata (SwapPoints Parcels, ${awb})`,
      `Return: On its way back at Kolkata (SwapPoints Parcels, ${awb})`,
    ]);
    expect([after.status, after.transitStatus, after.shippingDetails]).toEqual([before.status, before.transitStatus, before.shippingDetails]);
    expect(await mailsTo(t, customer.email, 'picked_up')).toHaveLength(pickedUpMails);

    const parcel = (await t.request('GET', `/api/exchange/${id}/shipment`, { token: customer.token })).body.returnShipment;
    expect(parcel.status).toBe('delivered');
    expect(parcel.events.map((e: { status: string }) => e.status)).toEqual(['picked_up', 'in_transit', 'delivered']);
    const listed = (await listShipments(t.ctx.db, 1000)).find((s) => s.trackingNumber === awb);
    expect(listed).toMatchObject({ direction: 'outbound', requestId: id, status: 'delivered' });
  });
});

describe.each(databaseKinds())('returns booked through Shiprocket (%s)', (kind) => {
  const WEBHOOK_TOKEN = 'sr-webhook-token-return-0123456789';
  let fake: FakeShiprocket;
  let t: TestApp;
  let admin: Person;
  let customer: Person;
  let warehouseId: string;

  beforeAll(async () => {
    fake = await startFakeShiprocket();
    t = await createTestApp(kind, fake.env(WEBHOOK_TOKEN));
    ({ admin, customer, warehouseId } = await setUp(t));
  });
  afterAll(async () => {
    await t.close();
    fake.stop();
  });

  const forwardOrders = () => fake.orders.filter((o) => o.kind === 'forward');

  test("booked as a forward order from the warehouse to the customer's address; the admin's label is Shiprocket's", async () => {
    const id = await returnToShip(t, customer, admin, warehouseId);
    const res = await book(t, admin, id);
    expect(res.status).toBe(201);
    const order = forwardOrders().at(-1)!;
    expect(res.body).toMatchObject({ carrier: 'Shiprocket (Delhivery Surface)', trackingNumber: order.awb });
    expect(order.body).toMatchObject({ billing_customer_name: RETURN_ADDRESS.name, billing_pincode: '700016', billing_phone: '9830011223', billing_email: customer.email });
    expect(fake.pickupLocations.find((p) => p.pickup_location === order.body.pickup_location)).toMatchObject({ pin_code: '560058', phone: '8040001800' });
    expect(order.pickupRequested).toBe(true);
    expect((await outboundRows(t, id))[0]!.label_pdf).toEqual(fakeLabelPdf(order.awb!));
    const label = await pdfOf(t, `/api/admin/exchange-requests/${id}/return/label`, admin.token);
    expect(label.status).toBe(200);
    // Shiprocket's page is copied as it is: no drawing of ours on it
    const page = (await PDFDocument.load(label.bytes)).getPage(0);
    expect([page.getWidth(), page.getHeight(), page.node.Contents()]).toEqual([288, 432, undefined]);
  });

  test('Shiprocket refusing is a 502 and silent is a 503, each with a sentence and nothing kept (no shipment, not shipped, no mail); a retry then books it', async () => {
    const id = await returnToShip(t, customer, admin, warehouseId);
    const mailsBefore = (await mailsTo(t, customer.email, 'return_shipped')).length;
    const nothingKept = async () => {
      expect(await outboundRows(t, id)).toEqual([]);
      expect((await t.request('GET', `/api/exchange/${id}`, { token: customer.token })).body.offer.returnShipment).toBeNull();
      expect(await mailsTo(t, customer.email, 'return_shipped')).toHaveLength(mailsBefore);
    };
    fake.failNext('/courier/assign/awb', { kind: 'http', status: 500 });
    const refused = await book(t, admin, id);
    expect(refused.status).toBe(502);
    expect(refused.body.error).toStartWith('The courier service could not book the return right now');
    expect(forwardOrders().at(-1)!.cancelled).toBe(true);
    await nothingKept();
    fake.failNext('/orders/create/adhoc', { kind: 'slow', delayMs: LATE_ANSWER_MS });
    const silent = await book(t, admin, id);
    expect([silent.status, silent.body.error]).toEqual([503, 'The courier service did not answer in time, so the return was not booked. Please try again in a few minutes.']);
    await nothingKept();
    const retry = await book(t, admin, id);
    expect(retry.status).toBe(201);
    expect(await outboundRows(t, id)).toHaveLength(1);
    expect(await mailsTo(t, customer.email, 'return_shipped')).toHaveLength(mailsBefore + 1);
  });

  test('two calls racing while Shiprocket is slow book one order', async () => {
    const id = await returnToShip(t, customer, admin, warehouseId);
    const before = forwardOrders().length;
    fake.failNext('/courier/generate/pickup', { kind: 'slow', delayMs: 300 });
    const answers = await Promise.all([book(t, admin, id), book(t, admin, id)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
    expect(answers[0]!.body).toEqual(answers[1]!.body);
    expect(forwardOrders().length).toBe(before + 1);
  });

  test("its webhook moves the return along once, never back, and the customer's page reads the latest step", async () => {
    const id = await returnToShip(t, customer, admin, warehouseId);
    const awb = (await book(t, admin, id)).body.trackingNumber as string;
    const post = () => t.request('POST', '/api/carriers/current/events', { headers: { 'x-api-key': WEBHOOK_TOKEN, 'content-type': 'application/json' }, body: fake.webhookBody(awb) });
    fake.scan(awb, { srStatus: 42, label: 'PICKED UP', date: '2026-11-26 10:04:00', location: 'Bengaluru' });
    fake.scan(awb, { srStatus: 17, label: 'OUT FOR DELIVERY', date: '2026-11-28 09:30:00', location: 'Kolkata' });
    expect((await post()).body).toEqual({ received: 2, recorded: 2 });
    expect((await post()).body).toEqual({ received: 2, recorded: 0 });
    const parcel = (await t.request('GET', `/api/exchange/${id}/shipment`, { token: customer.token })).body.returnShipment;
    expect([parcel.status, parcel.trackingNumber]).toEqual(['out_for_delivery', awb]);
    expect((await typesOf(t, customer, id)).filter((type) => type === 'tracking')).toHaveLength(2);
  });

  test('a late webhook is made up by polling the return\'s AWB, each step once', async () => {
    const id = await returnToShip(t, customer, admin, warehouseId);
    const awb = (await book(t, admin, id)).body.trackingNumber as string;
    fake.scan(awb, { srStatus: 42, label: 'PICKED UP', date: '2026-11-26 10:04:00', location: 'Bengaluru' });
    fake.scan(awb, { srStatus: 7, label: 'DELIVERED', date: '2026-11-28 15:10:00', location: 'Kolkata' });
    const polled = await pollLateTracking(t.ctx, { lateAfterMs: 0 });
    expect(polled.recorded).toBe(2);
    expect((await pollLateTracking(t.ctx, { lateAfterMs: 0 })).recorded).toBe(0);
    const parcel = (await t.request('GET', `/api/exchange/${id}/shipment`, { token: customer.token })).body.returnShipment;
    expect(parcel.events.map((e: { status: string }) => e.status)).toEqual(['picked_up', 'delivered']);
  });
});
