import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sql } from 'kysely';
import { PDFDocument } from 'pdf-lib';
import { embeddedCarrier, isEmbeddedAwb } from '#api/integrations/carriers/embedded.ts';
import { CarrierAuthError, CarrierUnavailable, type Carrier, type CreatedShipment, type OutboundShipmentInput, type ReturnShipmentInput, type TrackingEvent } from '#api/integrations/carriers/types.ts';
import { addCustomer } from '#api/modules/customers/service.ts';
import { requestReference } from '#api/modules/requests/reference.ts';
import { pollLateTracking } from '#api/modules/shipments/poll.ts';
import { recordTrackingEvents } from '#api/modules/shipments/tracking.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { createWarehouse, mailsTo, pdfOf, requestAt, signInPerson, type Person } from '#tests/helpers/fixtures.ts';

const pickup = (overrides: Record<string, unknown> = {}) => ({
  name: 'Asha Rao',
  phone: '98450 12345',
  addressLine1: '14, 3rd Cross, Jayanagar',
  addressLine2: '4th Block',
  city: 'Bengaluru',
  state: 'Karnataka',
  postalCode: '560011',
  ...overrides,
});

const event = (trackingNumber: string, status: TrackingEvent['status'], at: string, key = `${status}@${at}`): TrackingEvent => ({
  trackingNumber,
  status,
  at: new Date(at),
  eventKey: key,
  description: null,
  location: 'Bengaluru',
});

describe.each(databaseKinds())('prepaid labels with the embedded carrier (%s)', (kind) => {
  let t: TestApp;
  let admin: Person;
  let customer: Person;
  let other: Person;
  let warehouseId: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { CARRIER: 'embedded' });
    admin = await signInPerson(t, 'parcels.admin@swappoints.example', { admin: true });
    customer = await signInPerson(t);
    other = await signInPerson(t);
    warehouseId = (await createWarehouse(t, admin)).id;
  });
  afterAll(() => t.close());

  test('an approved request gets one label: 201 with an AWB, the same label again with 200, a mail with the link', async () => {
    const id = await requestAt(t, 'approved', customer, admin, warehouseId);
    const offered = await t.request('GET', `/api/exchange/${id}/shipment`, { token: customer.token });
    expect(offered.body).toEqual({ labelsOffered: true, pickupName: null, shipment: null, returnShipment: null });

    const first = await t.request('POST', `/api/exchange/${id}/label`, { token: customer.token, body: pickup() });
    expect(first.status).toBe(201);
    expect(first.body.carrier).toBe('SwapPoints Parcels');
    expect(isEmbeddedAwb(first.body.trackingNumber)).toBe(true);
    expect(first.body.labelUrl).toBe(`${TEST_ORIGIN}/api/exchange/${id}/label`);

    const again = await t.request('POST', `/api/exchange/${id}/label`, { token: customer.token, body: pickup({ name: 'Someone Else' }) });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const rows = await t.ctx.db.selectFrom('shipments').select('id').where('request_id', '=', id).execute();
    expect(rows).toHaveLength(1);

    const mails = await mailsTo(t, customer.email, 'label_ready');
    expect(mails.at(-1)!.link).toBe(first.body.labelUrl);
    expect(mails.at(-1)!.text_body).toContain(first.body.trackingNumber);

    const shown = await t.request('GET', `/api/exchange/${id}/shipment`, { token: customer.token });
    expect(shown.body.shipment).toMatchObject({ carrier: 'SwapPoints Parcels', trackingNumber: first.body.trackingNumber, status: null, events: [], pickup: { phone: '9845012345', postalCode: '560011' } });
    const detail = await t.request('GET', `/api/exchange/${id}`, { token: customer.token });
    expect(detail.body.events.map((e: { type: string }) => e.type)).toContain('label');
  });

  test('the label PDF is the label page and the packing slip, under 60 KB, for the owner and admins; 404 for anyone else', async () => {
    const id = await requestAt(t, 'approved', customer, admin, warehouseId);
    const made = await t.request('POST', `/api/exchange/${id}/label`, { token: customer.token, body: pickup({ name: 'आशा राव' }) });
    expect(made.status).toBe(201);
    const mine = await pdfOf(t, `/api/exchange/${id}/label`, customer.token);
    expect(mine.status).toBe(200);
    expect(mine.type).toBe('application/pdf');
    expect(mine.bytes.length).toBeLessThan(60 * 1024);
    const doc = await PDFDocument.load(mine.bytes);
    expect(doc.getPageCount()).toBe(2);
    expect(doc.getTitle()).toBe(`Return label ${made.body.trackingNumber}`);
    expect((await pdfOf(t, `/api/exchange/${id}/label`, admin.token)).status).toBe(200);
    const theirs = await t.request('GET', `/api/exchange/${id}/label`, { token: other.token });
    expect(theirs.status).toBe(404);
    expect((await t.request('POST', `/api/exchange/${id}/label`, { token: other.token, body: pickup() })).status).toBe(404);
    expect((await t.request('GET', `/api/exchange/${id}/shipment`, { token: other.token })).status).toBe(404);
  });

  test('a request without a label has no label PDF (404), but its packing slip once approved: one page with the reference', async () => {
    const pending = await requestAt(t, 'pending', customer, admin, warehouseId);
    expect((await t.request('GET', `/api/exchange/${pending}/packing-slip`, { token: customer.token })).status).toBe(409);
    const id = await requestAt(t, 'shipped', customer, admin, warehouseId);
    expect((await t.request('GET', `/api/exchange/${id}/label`, { token: customer.token })).status).toBe(404);
    const slip = await pdfOf(t, `/api/exchange/${id}/packing-slip`, customer.token);
    expect(slip.status).toBe(200);
    const doc = await PDFDocument.load(slip.bytes);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getTitle()).toBe(`Packing slip ${requestReference(id)}`);
    expect((await t.request('GET', `/api/exchange/${id}/packing-slip`, { token: other.token })).status).toBe(404);
    expect((await t.request('GET', `/api/exchange/not-a-uuid/packing-slip`, { token: customer.token })).status).toBe(404);
  });

  test('409 when the request is not approved or was shipped by the customer', async () => {
    for (const stage of ['pending', 'declined', 'shipped'] as const) {
      const id = await requestAt(t, stage, customer, admin, warehouseId);
      const res = await t.request('POST', `/api/exchange/${id}/label`, { token: customer.token, body: pickup() });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe(stage === 'shipped' ? 'This item has already been shipped, so it needs no prepaid label.' : 'A prepaid label can be made once the request is approved.');
    }
    expect(await t.ctx.db.selectFrom('shipments').select('id').where('state', '=', 'booking').execute()).toEqual([]);
  });

  test('400 names the field as the form labels it', async () => {
    const id = await requestAt(t, 'approved', customer, admin, warehouseId);
    const cases: [Record<string, unknown>, string][] = [
      [pickup({ phone: '  ', city: '' }), 'Please fill in all required fields: Phone, City'],
      [pickup({ postalCode: '56001' }), 'Postal Code must be a 6-digit PIN code (like 560058) for India.'],
      [pickup({ phone: '12345' }), 'Phone must be a phone number in India (+91 and the number, or the number alone).'],
      [pickup({ phone: 'call me' }), 'Phone may hold only digits, spaces, dashes, brackets and a leading +.'],
      [pickup({ addressLine1: 'x'.repeat(201) }), 'Address Line 1 can be at most 200 characters.'],
      [pickup({ name: 42 }), 'Please fill in the pickup address: name, phone, address, city, state and postal code.'],
    ];
    for (const [body, message] of cases) {
      const res = await t.request('POST', `/api/exchange/${id}/label`, { token: customer.token, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(message);
    }
    const odd = await t.request('POST', `/api/exchange/${id}/label`, { token: customer.token, body: [1, 2] as unknown as Record<string, unknown> });
    expect(odd.status).toBe(400);
    expect((await t.request('GET', `/api/exchange/${id}/shipment`, { token: customer.token })).body.shipment).toBeNull();
  });

  test('tracking: the first pickup puts the request In Transit with the pickup day; each event once; never backwards; mails at pickup and delivery', async () => {
    const id = await requestAt(t, 'approved', customer, admin, warehouseId);
    const { trackingNumber } = (await t.request('POST', `/api/exchange/${id}/label`, { token: customer.token, body: pickup() })).body;
    // 20:00 UTC is the next day in the shop's zone (Asia/Kolkata)
    const pickedUp = event(trackingNumber, 'picked_up', '2026-11-24T20:00:00Z');
    expect(await recordTrackingEvents(t.ctx, 'embedded', [pickedUp, pickedUp])).toEqual({ recorded: 1, unknown: [] });
    const shipped = await t.request('GET', `/api/exchange/${id}`, { token: customer.token });
    expect(shipped.body.transitStatus).toBe('shipped');
    expect(shipped.body.shippingDetails).toMatchObject({ carrierName: 'SwapPoints Parcels', trackingNumber, shippingDate: '2026-11-25' });
    expect(await mailsTo(t, customer.email, 'parcel_picked_up')).toHaveLength(1);

    const delivered = event(trackingNumber, 'delivered', '2026-11-26T09:00:00Z');
    const late = event(trackingNumber, 'in_transit', '2026-11-25T06:00:00Z');
    expect(await recordTrackingEvents(t.ctx, 'embedded', [delivered, late, delivered, event('SWP0000000000', 'delivered', '2026-11-26T09:00:00Z')])).toEqual({ recorded: 2, unknown: ['SWP0000000000'] });

    const view = (await t.request('GET', `/api/exchange/${id}/shipment`, { token: customer.token })).body.shipment;
    expect(view.status).toBe('delivered');
    expect(view.events.map((e: { status: string }) => e.status)).toEqual(['picked_up', 'in_transit', 'delivered']);
    const timeline = (await t.request('GET', `/api/exchange/${id}`, { token: customer.token })).body.events;
    expect(timeline.filter((e: { type: string }) => e.type === 'tracking')).toHaveLength(3);
    expect(timeline.filter((e: { type: string }) => e.type === 'shipped')).toHaveLength(1);
    expect(await mailsTo(t, customer.email, 'parcel_delivered')).toHaveLength(1);
    // receiving still works as for a typed tracking number
    const received = await t.request('PUT', `/api/admin/exchange-requests/${id}/transit`, { token: admin.token, body: { transitStatus: 'received' } });
    expect(received.status).toBe(200);
  });

  test("the embedded carrier's webhook is always 401; another carrier's name is 404", async () => {
    const res = await t.request('POST', '/api/carriers/embedded/events', { body: { awb: 'x' } });
    expect(res.status).toBe(401);
    expect((await t.request('POST', '/api/carriers/shiprocket/events', { body: {} })).status).toBe(404);
  });
});

describe.each(databaseKinds())('CARRIER=none (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { CARRIER: 'none' });
  });
  afterAll(() => t.close());

  test('no labels are offered: 409 with a sentence, and the page is told so', async () => {
    const admin = await signInPerson(t, 'none.admin@swappoints.example', { admin: true });
    // the shop knows this customer's name: the pickup form starts with it
    const email = `ravi.${Date.now()}@example.com`;
    await addCustomer(t.ctx.db, { email, name: 'Ravi Kumar' });
    const customer = await signInPerson(t, email);
    const id = await requestAt(t, 'approved', customer, admin, (await createWarehouse(t, admin)).id);
    const res = await t.request('POST', `/api/exchange/${id}/label`, { token: customer.token, body: pickup() });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('Prepaid labels are not offered by this shop. Please ship the item yourself and add the shipping details.');
    expect((await t.request('GET', `/api/exchange/${id}/shipment`, { token: customer.token })).body).toEqual({ labelsOffered: false, pickupName: 'Ravi Kumar', shipment: null, returnShipment: null });
    expect((await t.request('POST', '/api/carriers/embedded/events', { body: {} })).status).toBe(404);
  });
});

/**
 * A carrier outside our code that fails, answers slowly or posts webhooks: a test-only Carrier (the
 * Shiprocket adapter's own tests cover the same paths over HTTP against its fake).
 */
class OutsideCarrier implements Carrier {
  readonly id = 'outside';
  calls = 0;
  failNext: CarrierUnavailable | null = null;
  gate: Promise<void> | null = null;
  private readonly inner: Carrier;
  constructor(inner: Carrier) {
    this.inner = inner;
  }
  private async attempt(book: () => Promise<CreatedShipment>): Promise<CreatedShipment> {
    this.calls++;
    if (this.gate) await this.gate;
    if (this.failNext) {
      const failure = this.failNext;
      this.failNext = null;
      throw failure;
    }
    return { ...(await book()), carrierName: 'Outside Express' };
  }
  createReturnShipment(input: ReturnShipmentInput): Promise<CreatedShipment> {
    return this.attempt(() => this.inner.createReturnShipment(input));
  }
  createOutboundShipment(input: OutboundShipmentInput): Promise<CreatedShipment> {
    return this.attempt(() => this.inner.createOutboundShipment(input));
  }
  parseWebhook(headers: Headers, rawBody: string): TrackingEvent[] {
    if (headers.get('x-outside-token') !== 'right-token') throw new CarrierAuthError('bad token');
    const body = JSON.parse(rawBody) as { awb: string; status: TrackingEvent['status']; at: string; id: string }[];
    return body.map((e) => ({ trackingNumber: e.awb, status: e.status, at: new Date(e.at), eventKey: e.id, description: 'Scanned', location: null }));
  }
  /** what the carrier's tracking API answers for each AWB */
  readonly tracked = new Map<string, TrackingEvent[]>();
  async track(trackingNumber: string): Promise<TrackingEvent[]> {
    return this.tracked.get(trackingNumber) ?? [];
  }
}

describe.each(databaseKinds())('a carrier that fails, races or posts events (%s)', (kind) => {
  let t: TestApp;
  let carrier: OutsideCarrier;
  let admin: Person;
  let customer: Person;
  let warehouseId: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { CARRIER: 'embedded' }, { carrier: null });
    // it books with the embedded carrier's AWB sequence, so it needs the app's database: put in once that is open
    carrier = new OutsideCarrier(embeddedCarrier(t.ctx.db));
    t.ctx.carrier = carrier;
    admin = await signInPerson(t, 'outside.admin@swappoints.example', { admin: true });
    customer = await signInPerson(t);
    warehouseId = (await createWarehouse(t, admin)).id;
  });
  afterAll(() => t.close());

  test('a carrier failure answers its status with a sentence, keeps nothing, and a retry works', async () => {
    const id = await requestAt(t, 'approved', customer, admin, warehouseId);
    // other cases (any order) book labels for this customer too: count this case's mails only
    const labelMailsBefore = (await mailsTo(t, customer.email, 'label_ready')).length;
    carrier.failNext = new CarrierUnavailable('The courier did not answer in time. Please try again in a few minutes.', 503);
    const failed = await t.request('POST', `/api/exchange/${id}/label`, { token: customer.token, body: pickup() });
    expect(failed.status).toBe(503);
    expect(failed.body.error).toBe('The courier did not answer in time. Please try again in a few minutes.');
    expect(await t.ctx.db.selectFrom('shipments').select('id').where('request_id', '=', id).execute()).toEqual([]);
    expect(await mailsTo(t, customer.email, 'label_ready')).toHaveLength(labelMailsBefore);

    carrier.failNext = new CarrierUnavailable('The courier refused the pickup address.', 502);
    expect((await t.request('POST', `/api/exchange/${id}/label`, { token: customer.token, body: pickup() })).status).toBe(502);

    const retry = await t.request('POST', `/api/exchange/${id}/label`, { token: customer.token, body: pickup() });
    expect(retry.status).toBe(201);
    expect(retry.body.carrier).toBe('Outside Express');
  });

  test('a reservation left by a call that died (past its lease) is taken over: the label is booked', async () => {
    const id = await requestAt(t, 'approved', customer, admin, warehouseId);
    // what a process that stopped between reserving and hearing from the carrier leaves behind
    await sql`insert into shipments (request_id, carrier, reservation, reserved_at, pickup_name, pickup_phone, pickup_line1, pickup_city, pickup_state, pickup_postal_code)
              values (${id}, 'outside', 'dead-call', now() - interval '1 hour', 'A', '9845012345', 'B', 'C', 'D', '560011')`.execute(t.ctx.db);
    const res = await t.request('POST', `/api/exchange/${id}/label`, { token: customer.token, body: pickup() });
    expect(res.status).toBe(201);
    const row = await t.ctx.db.selectFrom('shipments').select(['state', 'reservation', 'pickup_name']).where('request_id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'booked', pickup_name: 'Asha Rao' });
    expect(row.reservation).not.toBe('dead-call');
  });

  test('two racing label calls book one shipment and both answer the same label', async () => {
    const id = await requestAt(t, 'approved', customer, admin, warehouseId);
    let open!: () => void;
    carrier.gate = new Promise<void>((resolve) => (open = resolve));
    const before = carrier.calls;
    const first = t.request('POST', `/api/exchange/${id}/label`, { token: customer.token, body: pickup() });
    const second = t.request('POST', `/api/exchange/${id}/label`, { token: customer.token, body: pickup() });
    // let both reach the reservation before the carrier answers
    while (carrier.calls === before) await Bun.sleep(5);
    await Bun.sleep(50);
    open();
    carrier.gate = null;
    const answers = await Promise.all([first, second]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
    expect(answers[0]!.body).toEqual(answers[1]!.body);
    expect(carrier.calls - before).toBe(1);
    expect(await t.ctx.db.selectFrom('shipments').select('id').where('request_id', '=', id).execute()).toHaveLength(1);
  });

  test('webhook events: 401 without the carrier\'s token; with it each event is recorded once', async () => {
    const id = await requestAt(t, 'approved', customer, admin, warehouseId);
    const { trackingNumber } = (await t.request('POST', `/api/exchange/${id}/label`, { token: customer.token, body: pickup() })).body;
    const body = [
      { awb: trackingNumber, status: 'picked_up', at: '2026-11-24T05:00:00Z', id: 'e1' },
      { awb: trackingNumber, status: 'in_transit', at: '2026-11-24T09:00:00Z', id: 'e2' },
    ];
    const refused = await t.request('POST', '/api/carriers/outside/events', { body, headers: { 'x-outside-token': 'wrong' } });
    expect(refused.status).toBe(401);
    const eventsOfThisParcel = () =>
      t.ctx.db.selectFrom('shipment_events').innerJoin('shipments', 'shipments.id', 'shipment_events.shipment_id').select('shipment_events.id').where('shipments.request_id', '=', id).execute();
    expect(await eventsOfThisParcel()).toEqual([]);
    const taken = await t.request('POST', '/api/carriers/outside/events', { body, headers: { 'x-outside-token': 'right-token' } });
    expect(taken.status).toBe(200);
    expect(taken.body).toEqual({ received: 2, recorded: 2 });
    const repeated = await t.request('POST', '/api/carriers/outside/events', { body, headers: { 'x-outside-token': 'right-token' } });
    expect(repeated.body).toEqual({ received: 2, recorded: 0 });
    const garbage = await t.request('POST', '/api/carriers/outside/events', { body: 'not json', headers: { 'x-outside-token': 'right-token', 'content-type': 'application/json' } });
    expect(garbage.status).toBe(400);
    const request = (await t.request('GET', `/api/exchange/${id}`, { token: customer.token })).body;
    expect(request.transitStatus).toBe('shipped');
    expect(request.shippingDetails.carrierName).toBe('Outside Express');
  });

  test('a late webhook is made up by polling: the carrier-tracking job records what the carrier reports, once', async () => {
    const id = await requestAt(t, 'approved', customer, admin, warehouseId);
    const { trackingNumber } = (await t.request('POST', `/api/exchange/${id}/label`, { token: customer.token, body: pickup() })).body;
    carrier.tracked.set(trackingNumber, [event(trackingNumber, 'picked_up', '2026-11-24T05:00:00Z', 'p1'), event(trackingNumber, 'delivered', '2026-11-25T05:00:00Z', 'p2')]);
    // not late yet: nothing is asked
    expect((await pollLateTracking(t.ctx)).recorded).toBe(0);
    expect((await pollLateTracking(t.ctx, { lateAfterMs: 0 })).recorded).toBe(2);
    const view = (await t.request('GET', `/api/exchange/${id}/shipment`, { token: customer.token })).body.shipment;
    expect(view.status).toBe('delivered');
    // delivered parcels are no longer asked about
    expect((await pollLateTracking(t.ctx, { lateAfterMs: 0 })).polled).toBe(
      (await t.ctx.db.selectFrom('shipments').select('id').where('state', '=', 'booked').where('latest_status', 'is', null).execute()).length +
        (await t.ctx.db.selectFrom('shipments').select('id').where('state', '=', 'booked').where('latest_status', 'not in', ['delivered']).execute()).length,
    );
  });
});
