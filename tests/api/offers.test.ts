import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { createRequest, createWarehouse, mailsTo, shippingBody, signInPerson, uploadedImage, type Person } from '#tests/helpers/fixtures.ts';
import {
  NO_OFFER_WAITING,
  OFFER_ALREADY_ACCEPTED,
  OFFER_ALREADY_DECLINED,
  OFFER_DECLINED_TWICE,
  OFFER_WAITING,
  RETURN_ADDRESS_NEEDED,
  RETURN_ALREADY_SHIPPED,
  NO_RETURN_TO_SHIP,
} from '#api/modules/credit/rules.ts';

setDefaultTimeout(60_000);

export const ADDRESS = { name: 'Asha Rao', addressLine1: '14 MG Road', city: 'Bengaluru', state: 'Karnataka', postalCode: '560001', country: 'India', phone: '+91 98450 00000' };

describe.each(databaseKinds())('revised offers: a credit below the quote waits for the customer (%s)', (kind) => {
  let t: TestApp;
  let admin: Person;
  let customer: Person;
  let other: Person;
  let warehouseId: string;

  const asAdmin = (method: string, path: string, body?: unknown) => t.request(method, path, { token: admin.token, body });
  const as = (who: Person, method: string, path: string, body?: unknown) => t.request(method, path, { token: who.token, body });
  const ledgerRows = (id: string) => t.ctx.db.selectFrom('credit_ledger').selectAll().where('exchange_request_id', '=', id).execute();

  /** A received request quoted ₹850 (HP 88A, like new). */
  async function receivedRequest(fields: Record<string, unknown> = { brand: 'HP', productName: 'HP 88A Toner', condition: 'like_new' }): Promise<string> {
    const id = await createRequest(t, customer, fields);
    for (const [method, path, body, who] of [
      ['PUT', `/api/admin/exchange-requests/${id}/status`, { status: 'approved', warehouseId }, admin],
      ['POST', `/api/exchange/${id}/shipping`, shippingBody(), customer],
      ['PUT', `/api/admin/exchange-requests/${id}/transit`, { transitStatus: 'received' }, admin],
    ] as const) {
      expect((await as(who, method, path, body)).status).toBe(200);
    }
    return id;
  }

  async function offered(amount = 400): Promise<string> {
    const id = await receivedRequest();
    const res = await asAdmin('PUT', `/api/admin/exchange-requests/${id}/credit`, { creditAmount: amount, reason: 'Cracked drum housing' });
    expect([res.status, res.body.offer?.status]).toEqual([200, 'pending']);
    return id;
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signInPerson(t, 'valuer@swappoints.example', { admin: true });
    customer = await signInPerson(t);
    other = await signInPerson(t);
    warehouseId = (await createWarehouse(t, admin)).id;
    expect((await asAdmin('POST', '/api/admin/valuation/entries', { brand: 'HP', model: '88A', name: 'HP 88A Black Toner', baseValue: 1000 })).status).toBe(201);
  });
  afterAll(() => t.close());

  test('credit below the quote gives no credit: the request holds a pending offer, the customer is mailed both figures and that no answer means acceptance', async () => {
    const id = await receivedRequest();
    const photo = await uploadedImage(t, admin.id);
    const res = await asAdmin('PUT', `/api/admin/exchange-requests/${id}/credit`, { creditAmount: 400, reason: 'Cracked drum housing', inspectionImages: [photo] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ creditedAt: null, creditAmount: 0, loyaltyPointsSuccess: false, offer: { amount: 400, quotedAmount: 850, reason: 'Cracked drum housing', status: 'pending', decidedAt: null, choice: null } });
    const days = (new Date(res.body.offer.respondBy).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);
    expect(await ledgerRows(id)).toHaveLength(0);
    const mine = await as(customer, 'GET', `/api/exchange/${id}`);
    expect(mine.body).toMatchObject({ offer: { amount: 400, quotedAmount: 850, status: 'pending' }, inspectionImages: [photo] });
    const [mail] = await mailsTo(t, customer.email, 'offer_made').then((m) => m.slice(-1));
    expect(mail!.text_body).toContain('You were quoted ₹850 when you submitted it; after inspection we can offer ₹400 in store credit.');
    expect(mail!.text_body).toContain('Why the offer is below the quote: Cracked drum housing');
    expect(mail!.text_body).toMatch(/If we have no answer from you by \d{1,2} \w+ \d{4}, the offer is accepted and ₹400 is credited to your account\./);
    expect(mail!.text_body).toContain(`http://localhost:3000${photo.url}`);
    expect((await as(customer, 'GET', `/api/exchange/${id}`)).body.events.map((e: { type: string }) => e.type)).toContain('offered');
    // a second credit while the offer waits is refused
    const again = await asAdmin('PUT', `/api/admin/exchange-requests/${id}/credit`, { creditAmount: 900 });
    expect([again.status, again.body]).toEqual([409, { error: OFFER_WAITING }]);
  });

  test('below the quote without a reason is refused, and nothing is offered', async () => {
    const id = await receivedRequest();
    const res = await asAdmin('PUT', `/api/admin/exchange-requests/${id}/credit`, { creditAmount: 400 });
    expect([res.status, res.body.error]).toEqual([400, 'The credit is below the ₹850 the customer was quoted: please give a reason.']);
    expect((await as(customer, 'GET', `/api/exchange/${id}`)).body.offer).toBeNull();
  });

  test('credit at or above the quote, or on a request without a quote, goes through at once', async () => {
    const atQuote = await receivedRequest();
    const res = await asAdmin('PUT', `/api/admin/exchange-requests/${atQuote}/credit`, { creditAmount: 850 });
    expect(res.body).toMatchObject({ creditAmount: 850, offer: null, loyaltyPointsSuccess: true });
    const noQuote = await receivedRequest({ brand: 'Lexmark', productName: 'Lexmark roller', condition: 'good' });
    const low = await asAdmin('PUT', `/api/admin/exchange-requests/${noQuote}/credit`, { creditAmount: 10 });
    expect(low.body).toMatchObject({ creditAmount: 10, offer: null });
    expect(await ledgerRows(noQuote)).toHaveLength(1);
  });

  test('accepting gives the credit as the credit step does: one ledger row, the credit mail; a second accept is 409', async () => {
    const id = await offered();
    const res = await as(customer, 'POST', `/api/exchange/${id}/offer/accept`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ creditAmount: 400, creditReason: 'Cracked drum housing', offer: { status: 'accepted', decidedBy: 'customer' } });
    expect(res.body.creditedAt).not.toBeNull();
    const rows = await ledgerRows(id);
    expect(rows.map((r) => [Number(r.amount), Number(r.base_amount), r.push_status, r.created_by])).toEqual([[400, 400, 'success', admin.id]]);
    const [mail] = await mailsTo(t, customer.email, 'credit_assigned').then((m) => m.slice(-1));
    expect(mail!.subject).toContain('₹400');
    const again = await as(customer, 'POST', `/api/exchange/${id}/offer/accept`);
    expect([again.status, again.body]).toEqual([409, { error: OFFER_ALREADY_ACCEPTED }]);
    const decline = await as(customer, 'POST', `/api/exchange/${id}/offer/decline`, { choice: 'recycle' });
    expect(decline.status).toBe(409);
    // the admin completes it as any credited request
    expect((await asAdmin('PUT', `/api/admin/exchange-requests/${id}/status`, { status: 'completed' })).status).toBe(200);
  });

  test('two accepts at once: exactly one wins, one ledger row, the loser gets a 409 sentence', async () => {
    const id = await offered(300);
    const answers = await Promise.all([1, 2, 3].map(() => as(customer, 'POST', `/api/exchange/${id}/offer/accept`)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    for (const lost of answers.filter((a) => a.status === 409)) expect(lost.body).toEqual({ error: OFFER_ALREADY_ACCEPTED });
    expect(await ledgerRows(id)).toHaveLength(1);
  });

  test('an accept racing a decline: one outcome, at most one ledger row', async () => {
    const id = await offered(300);
    const [accept, decline] = await Promise.all([as(customer, 'POST', `/api/exchange/${id}/offer/accept`), as(customer, 'POST', `/api/exchange/${id}/offer/decline`, { choice: 'recycle' })]);
    expect([accept.status, decline.status].sort()).toEqual([200, 409]);
    expect(await ledgerRows(id)).toHaveLength(accept.status === 200 ? 1 : 0);
  });

  test("declining to recycle closes the request as declined with no credit; accepting afterwards is 409", async () => {
    const id = await offered();
    const res = await as(customer, 'POST', `/api/exchange/${id}/offer/decline`, { choice: 'recycle' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'declined', creditedAt: null, adminFeedback: 'You declined our offer of ₹400: we recycle the item, no credit given.', offer: { status: 'declined', choice: 'recycle', returnAddress: null } });
    const accept = await as(customer, 'POST', `/api/exchange/${id}/offer/accept`);
    expect([accept.status, accept.body]).toEqual([409, { error: OFFER_ALREADY_DECLINED }]);
    const twice = await as(customer, 'POST', `/api/exchange/${id}/offer/decline`, { choice: 'return', address: ADDRESS });
    expect([twice.status, twice.body]).toEqual([409, { error: OFFER_DECLINED_TWICE }]);
    expect(await ledgerRows(id)).toHaveLength(0);
    const credit = await asAdmin('PUT', `/api/admin/exchange-requests/${id}/credit`, { creditAmount: 900 });
    expect(credit.status).toBe(409);
    const ship = await asAdmin('POST', `/api/admin/exchange-requests/${id}/return`, { carrierName: 'Blue Dart', trackingNumber: 'BD1' });
    expect([ship.status, ship.body]).toEqual([409, { error: NO_RETURN_TO_SHIP }]);
  });

  test('declining for a return needs the address; the queue lists it under Returns to ship until the admin records the shipment, which mails the tracking', async () => {
    const id = await offered();
    const noAddress = await as(customer, 'POST', `/api/exchange/${id}/offer/decline`, { choice: 'return' });
    expect([noAddress.status, noAddress.body.error]).toEqual([400, RETURN_ADDRESS_NEEDED]);
    const partial = await as(customer, 'POST', `/api/exchange/${id}/offer/decline`, { choice: 'return', address: { ...ADDRESS, city: '  ' } });
    expect([partial.status, partial.body.error]).toEqual([400, RETURN_ADDRESS_NEEDED]);
    const tooLong = await as(customer, 'POST', `/api/exchange/${id}/offer/decline`, { choice: 'return', address: { ...ADDRESS, postalCode: '1'.repeat(21) } });
    expect(tooLong.status).toBe(400);
    const res = await as(customer, 'POST', `/api/exchange/${id}/offer/decline`, { choice: 'return', address: ADDRESS });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'declined', offer: { status: 'declined', choice: 'return', returnAddress: { ...ADDRESS, addressLine2: null }, returnShipment: null } });

    const waiting = await asAdmin('GET', '/api/admin/exchange-requests?waiting=returns');
    expect(waiting.body.map((r: { id: string }) => r.id)).toContain(id);
    const counts = await asAdmin('GET', '/api/admin/exchange-requests/waiting-counts');
    expect(counts.body.returnsToShip).toBe(waiting.body.length);
    const offers = await asAdmin('GET', '/api/admin/exchange-requests?waiting=offers');
    expect(offers.body.map((r: { id: string }) => r.id)).not.toContain(id);
    expect(counts.body.offersWaiting).toBe(offers.body.length);

    const missing = await asAdmin('POST', `/api/admin/exchange-requests/${id}/return`, { carrierName: 'Blue Dart' });
    expect(missing.status).toBe(400);
    const shipped = await asAdmin('POST', `/api/admin/exchange-requests/${id}/return`, { carrierName: 'Blue Dart', trackingNumber: 'BD998877' });
    expect(shipped.status).toBe(200);
    expect(shipped.body.offer.returnShipment).toMatchObject({ carrierName: 'Blue Dart', trackingNumber: 'BD998877' });
    const [mail] = await mailsTo(t, customer.email, 'return_shipped').then((m) => m.slice(-1));
    expect(mail!.text_body).toContain('with Blue Dart, tracking number BD998877');
    const twice = await asAdmin('POST', `/api/admin/exchange-requests/${id}/return`, { carrierName: 'DTDC', trackingNumber: 'X' });
    expect([twice.status, twice.body]).toEqual([409, { error: RETURN_ALREADY_SHIPPED }]);
    expect((await asAdmin('GET', '/api/admin/exchange-requests?waiting=returns')).body.map((r: { id: string }) => r.id)).not.toContain(id);
  });

  test("another customer's request, an unknown id and a request without an offer: 404, 404 and 409", async () => {
    const id = await offered();
    for (const path of [`/api/exchange/${id}/offer/accept`, `/api/exchange/${id}/offer/decline`]) {
      expect((await as(other, 'POST', path, { choice: 'recycle' })).status).toBe(404);
    }
    for (const bad of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '1', '%00']) {
      expect((await as(customer, 'POST', `/api/exchange/${bad}/offer/accept`)).status).toBe(404);
      expect((await as(customer, 'POST', `/api/exchange/${bad}/offer/decline`, { choice: 'recycle' })).status).toBe(404);
      expect((await asAdmin('POST', `/api/admin/exchange-requests/${bad}/return`, { carrierName: 'A', trackingNumber: 'B' })).status).toBe(404);
    }
    const plain = await receivedRequest();
    const none = await as(customer, 'POST', `/api/exchange/${plain}/offer/accept`);
    expect([none.status, none.body]).toEqual([409, { error: NO_OFFER_WAITING }]);
    expect((await as(customer, 'POST', `/api/admin/exchange-requests/${id}/return`, { carrierName: 'A', trackingNumber: 'B' })).status).toBe(403);
    expect((await t.request('POST', `/api/exchange/${id}/offer/accept`)).status).toBe(401);
  });

  test('junk input to the new routes is a 400 (or 404/409), never a 5xx', async () => {
    const id = await offered();
    const junk: unknown[] = [
      null, [], 'recycle', 42, true, {}, { choice: 'burn' }, { choice: null }, { choice: ['return'] }, { choice: 'return', address: 'MG Road' },
      { choice: 'return', address: [] }, { choice: 'return', address: { name: 5 } }, { choice: 'return', address: { ...ADDRESS, name: 'x'.repeat(100_000) } },
      { choice: 'RETURN' }, { choice: 'return', address: { ...ADDRESS, country: { a: 1 } } }, { choice: 'recycle\u0000' },
    ];
    for (const body of junk) {
      const res = await as(customer, 'POST', `/api/exchange/${id}/offer/decline`, body);
      expect([400, 409]).toContain(res.status);
      expect(typeof res.body.error).toBe('string');
    }
    for (const body of [null, [], 'x', {}, { carrierName: 1, trackingNumber: 2 }, { carrierName: 'x'.repeat(5000), trackingNumber: 'y' }, { carrierName: '  ', trackingNumber: '  ' }]) {
      const res = await asAdmin('POST', `/api/admin/exchange-requests/${id}/return`, body);
      expect([400, 409]).toContain(res.status);
    }
    for (const q of ['waiting=all', 'waiting=', 'waiting[]=offers', 'waiting=offers&waiting=returns']) {
      expect((await asAdmin('GET', `/api/admin/exchange-requests?${q}`)).status).toBeLessThan(500);
    }
    // still pending after all of it
    expect((await as(customer, 'GET', `/api/exchange/${id}`)).body.offer.status).toBe('pending');
  });
});
