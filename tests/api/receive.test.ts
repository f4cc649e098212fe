import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { requestReference } from '#api/modules/requests/reference.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { createWarehouse, mailsTo, requestAt, shippingBody, signInPerson, type Person } from '#tests/helpers/fixtures.ts';

setDefaultTimeout(60_000);

let trackingCounter = 0;
const newTracking = () => `RCV${process.pid}X${++trackingCounter}IN`;

describe.each(databaseKinds())('Admin → Receive and admin-entered shipping (%s)', (kind) => {
  let t: TestApp;
  let admin: Person;
  let customer: Person;
  let warehouseId: string;

  beforeAll(async () => {
    // webhooks to a local address: the outbox rows are what is checked, nothing is delivered here
    t = await createTestApp(kind, { WEBHOOK_ALLOW_PRIVATE: 'true' });
    admin = await signInPerson(t, 'receiver@swappoints.example', { admin: true });
    customer = await signInPerson(t, 'neha.receive@example.com');
    warehouseId = (await createWarehouse(t, admin)).id;
  });
  afterAll(() => t.close());

  const receive = (body: unknown, token = admin.token) => t.request('POST', '/api/admin/receive', { token, body });
  const detail = (id: string) => t.request('GET', `/api/admin/exchange-requests/${id}`, { token: admin.token });
  /** a shipped request with a tracking number of its own */
  const shipped = async (trackingNumber = newTracking()) => {
    const id = await requestAt(t, 'approved', customer, admin, warehouseId);
    const res = await t.request('POST', `/api/exchange/${id}/shipping`, { token: customer.token, body: shippingBody({ trackingNumber }) });
    expect(res.status).toBe(200);
    return { id, trackingNumber };
  };

  describe('POST /api/admin/receive', () => {
    test('a tracking number marks its request received and answers it with its photos and slip reference', async () => {
      const { id, trackingNumber } = await shipped();
      const res = await receive({ code: trackingNumber, adminNote: 'Box intact' });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(id);
      expect(res.body.transitStatus).toBe('received');
      expect(res.body.reference).toBe(requestReference(id));
      expect(res.body.images.length).toBeGreaterThan(0);
      const events = (await detail(id)).body.events;
      expect(events.at(-1)).toMatchObject({ type: 'received', actorRole: 'admin', note: 'Box intact' });
      // the same service as "Mark as Received": the customer's mail is queued
      expect((await mailsTo(t, customer.email)).some((m) => m.subject.toLowerCase().includes('received'))).toBe(true);
    });

    test('a tracking number matches without case or spaces', async () => {
      const { id } = await shipped('BD 998877 in');
      const res = await receive({ code: '  bd998877IN ' });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(id);
    });

    test('a packing slip reference (SP-…), upper or lower case, or the full id, marks its request received', async () => {
      const first = await shipped();
      const res = await receive({ code: requestReference(first.id) });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(first.id);
      const second = await shipped();
      const lower = await receive({ code: ` ${requestReference(second.id).toLowerCase()} ` });
      expect(lower.status).toBe(200);
      expect(lower.body.id).toBe(second.id);
      // the request's full id (as on the admin page's URL) works too
      const third = await shipped();
      expect((await receive({ code: third.id.toUpperCase() })).body.id).toBe(third.id);
    });

    test('an unknown code is 404 "No request found for {code}"', async () => {
      const res = await receive({ code: 'NOSUCH123' });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('No request found for NOSUCH123');
      const ref = await receive({ code: 'SP-0000000000' });
      expect(ref.status).toBe(404);
      expect(ref.body.error).toBe('No request found for SP-0000000000');
    });

    test('a repeated scan is 409 saying when it was received (shop time zone), and changes nothing', async () => {
      const { id, trackingNumber } = await shipped();
      expect((await receive({ code: trackingNumber })).status).toBe(200);
      const before = await t.ctx.db.selectFrom('exchange_requests').select(['received_at', 'updated_at']).where('id', '=', id).executeTakeFirstOrThrow();
      const eventsBefore = (await detail(id)).body.events.length;
      const again = await receive({ code: trackingNumber });
      expect(again.status).toBe(409);
      const when = new Date(before.received_at!);
      const shown = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Kolkata' }).format(when);
      const { productName } = (await detail(id)).body;
      expect(again.body.error).toBe(`${requestReference(id)} (${productName}) was already received on ${shown} IST.`);
      expect(again.body.receivedAt).toBe(when.toISOString());
      const after = await t.ctx.db.selectFrom('exchange_requests').select(['received_at', 'updated_at']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(after).toEqual(before);
      expect((await detail(id)).body.events.length).toBe(eventsBefore);
    });

    test('a request that is not approved, or has no shipping details, cannot be received', async () => {
      const pending = await requestAt(t, 'pending', customer, admin, warehouseId);
      const refused = await receive({ code: requestReference(pending) });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toBe('Only an approved request can be marked as received.');
      const approved = await requestAt(t, 'approved', customer, admin, warehouseId);
      const noShipping = await receive({ code: requestReference(approved) });
      expect(noShipping.status).toBe(409);
      expect(noShipping.body.error).toContain('has not submitted shipping details');
    });

    test('two requests sharing a tracking number are refused with a sentence, not guessed', async () => {
      const shared = newTracking();
      await shipped(shared);
      await shipped(shared);
      const res = await receive({ code: shared });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe(`${shared} matches more than one request. Open the request from the queue and mark it received there.`);
    });

    test('two scans racing: one receives, the other is 409, one timeline entry', async () => {
      const { id, trackingNumber } = await shipped();
      const answers = await Promise.all([receive({ code: trackingNumber }), receive({ code: requestReference(id) })]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expect(answers.find((a) => a.status === 409)!.body.error).toContain('was already received on');
      const received = (await detail(id)).body.events.filter((e: { type: string }) => e.type === 'received');
      expect(received).toHaveLength(1);
    });

    test('bad input is 400 and never a 5xx; customers are refused', async () => {
      for (const body of [{}, { code: '' }, { code: '   ' }, { code: 42 }, { code: null }, { code: 'x'.repeat(101) }, { code: 'SP-', adminNote: 7 }, { code: '\u0000' }, [], 'code']) {
        const res = await receive(body);
        expect(res.status).toBe(400);
        expect(typeof res.body.error).toBe('string');
      }
      for (const code of ["'; drop table exchange_requests; --", '%', '_', 'SP-%%%%%%%%%%', 'AB\u0000CD', 'ß'.repeat(100)]) {
        const res = await receive({ code });
        expect(res.status).toBe(404);
      }
      const tooLongNote = await receive({ code: 'NOSUCH', adminNote: 'n'.repeat(20_000) });
      expect(tooLongNote.status).toBeLessThan(500);
      expect((await receive({ code: 'NOSUCH' }, customer.token)).status).toBe(403);
      expect((await t.request('POST', '/api/admin/receive', { body: { code: 'NOSUCH' } })).status).toBe(401);
    });
  });

  describe('PUT /api/admin/exchange-requests/{id}/shipping', () => {
    const enter = (id: string, body: Record<string, unknown>, token = admin.token) => t.request('PUT', `/api/admin/exchange-requests/${id}/shipping`, { token, body });

    test('an admin records a parcel\'s details, the timeline says an admin entered them, and the parcel can then be received', async () => {
      const id = await requestAt(t, 'approved', customer, admin, warehouseId);
      const trackingNumber = newTracking();
      const res = await enter(id, shippingBody({ carrierName: 'India Post', trackingNumber, notes: 'Arrived without a slip' }));
      expect(res.status).toBe(200);
      expect(res.body.transitStatus).toBe('shipped');
      expect(res.body.shippingDetails).toMatchObject({ carrierName: 'India Post', trackingNumber, shippingDate: '2026-11-20' });
      const entered = (await detail(id)).body.events.at(-1);
      expect(entered).toMatchObject({ type: 'shipping_entered', actorRole: 'admin', actorEmail: admin.email, toStatus: 'shipped' });
      // the customer sees the same entry on their page
      const mine = await t.request('GET', `/api/exchange/${id}`, { token: customer.token });
      expect(mine.body.events.at(-1).type).toBe('shipping_entered');
      expect((await receive({ code: trackingNumber })).status).toBe(200);
    });

    test('request.shipped goes out once: for the admin\'s first entry, not for a correction', async () => {
      const hook = await t.request('POST', '/api/admin/webhooks', { token: admin.token, body: { url: 'http://127.0.0.1:9/hooks', events: ['request.shipped'] } });
      expect(hook.status).toBe(201);
      const shippedEvents = async (id: string) =>
        (await t.ctx.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', hook.body.id).execute()).filter((d) => JSON.stringify(d).includes(id));
      const id = await requestAt(t, 'approved', customer, admin, warehouseId);
      expect((await enter(id, shippingBody({ trackingNumber: newTracking() }))).status).toBe(200);
      expect(await shippedEvents(id)).toHaveLength(1);
      expect((await enter(id, shippingBody({ trackingNumber: newTracking() }))).status).toBe(200);
      expect(await shippedEvents(id)).toHaveLength(1);
      const events = (await detail(id)).body.events.filter((e: { type: string }) => e.type === 'shipping_entered');
      expect(events.map((e: { fromStatus: string | null }) => e.fromStatus)).toEqual([null, 'shipped']);
      await t.request('DELETE', `/api/admin/webhooks/${hook.body.id}`, { token: admin.token });
    });

    test('an admin can correct the customer\'s details until the item is received, then 409', async () => {
      const { id } = await shipped();
      const corrected = await enter(id, shippingBody({ trackingNumber: 'FIXED123' }));
      expect(corrected.status).toBe(200);
      expect(corrected.body.shippingDetails.trackingNumber).toBe('FIXED123');
      await t.request('PUT', `/api/admin/exchange-requests/${id}/transit`, { token: admin.token, body: { transitStatus: 'received' } });
      const late = await enter(id, shippingBody());
      expect(late.status).toBe(409);
      expect(late.body.error).toBe('Shipping details can no longer be changed: the item has already been received.');
    });

    test('the customer\'s checks: required fields, a future date, lengths; not before approval; unknown id 404; admins only', async () => {
      const id = await requestAt(t, 'approved', customer, admin, warehouseId);
      expect((await enter(id, shippingBody({ carrierName: '' }))).body.error).toBe('Please fill in all required shipping fields');
      const future = await enter(id, shippingBody({ shippingDate: '2999-01-01' }));
      expect([future.status, future.body.error]).toEqual([400, 'The shipping date cannot be in the future.']);
      const long = await enter(id, shippingBody({ trackingNumber: 'T'.repeat(5000) }));
      expect(long.status).toBe(400);
      expect(long.body.error).toContain('Tracking Number');
      for (const body of [{ carrierName: 5 }, { shippingDate: 'tomorrow' }]) expect((await enter(id, shippingBody(body))).status).toBe(400);
      const pending = await requestAt(t, 'pending', customer, admin, warehouseId);
      const early = await enter(pending, shippingBody());
      expect([early.status, early.body.error]).toEqual([409, 'Shipping details can only be added once the request is approved.']);
      expect((await enter('00000000-0000-4000-8000-000000000000', shippingBody())).status).toBe(404);
      expect((await enter('not-an-id', shippingBody())).status).toBe(404);
      expect((await enter(id, shippingBody(), customer.token)).status).toBe(403);
      expect((await detail(id)).body.transitStatus).toBeNull();
    });
  });
});
