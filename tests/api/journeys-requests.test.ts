import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { todayIn } from '#api/modules/requests/rules.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { createRequest, createWarehouse, requestAt, shippingBody, signInPerson, type Person } from '#tests/helpers/fixtures.ts';

/** The server side of the journey rules: no future shipping date, corrections until received, declining with a reason. */
describe.each(databaseKinds())('request journey rules (%s)', (kind) => {
  let t: TestApp;
  let admin: Person;
  let customer: Person;
  let other: Person;
  let warehouseId: string;
  beforeAll(async () => {
    t = await createTestApp(kind, { SIGNIN_LIMIT_PER_EMAIL: '1000', SHOP_TIME_ZONE: 'Pacific/Kiritimati' });
    admin = await signInPerson(t, 'journey.admin@swappoints.example', { admin: true });
    customer = await signInPerson(t);
    other = await signInPerson(t);
    warehouseId = (await createWarehouse(t, admin)).id;
  }, 60_000);
  afterAll(() => t.close());

  const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

  test("a shipping date after today in the shop's time zone is refused with a clear 400; today there is accepted", async () => {
    // UTC+14: the shop's today is ahead of UTC's most of the day
    const today = todayIn('Pacific/Kiritimati');
    const id = await requestAt(t, 'approved', customer, admin, warehouseId);
    const future = await t.request('POST', `/api/exchange/${id}/shipping`, { token: customer.token, body: shippingBody({ shippingDate: dayAfter(today) }) });
    expect(future.status).toBe(400);
    expect(future.body).toEqual({ error: 'The shipping date cannot be in the future.' });
    const fine = await t.request('POST', `/api/exchange/${id}/shipping`, { token: customer.token, body: shippingBody({ shippingDate: today }) });
    expect(fine.status).toBe(200);
    const correction = await t.request('PUT', `/api/exchange/${id}/shipping`, { token: customer.token, body: shippingBody({ shippingDate: dayAfter(today) }) });
    expect(correction.status).toBe(400);
    expect(correction.body.error).toBe('The shipping date cannot be in the future.');
  });

  test('shipping details can be corrected (PUT) until the item is received, by their owner only, and each correction is on the timeline', async () => {
    const id = await requestAt(t, 'shipped', customer, admin, warehouseId);
    const res = await t.request('PUT', `/api/exchange/${id}/shipping`, { token: customer.token, body: shippingBody({ trackingNumber: 'FIXED-42', carrierName: 'DTDC' }) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ transitStatus: 'shipped', trackingNumber: 'FIXED-42', shippingDetails: { carrierName: 'DTDC', trackingNumber: 'FIXED-42' } });
    const events = (await t.request('GET', `/api/exchange/${id}`, { token: customer.token })).body.events;
    expect(events.at(-1)).toMatchObject({ type: 'shipped', fromStatus: 'shipped', toStatus: 'shipped' });
    expect(events.at(-1).note).toStartWith('Corrected: DTDC, tracking FIXED-42');

    expect((await t.request('PUT', `/api/exchange/${id}/shipping`, { token: other.token, body: shippingBody() })).status).toBe(404);
    expect((await t.request('PUT', `/api/admin/exchange-requests/${id}/transit`, { token: admin.token, body: { transitStatus: 'received' } })).status).toBe(200);
    const late = await t.request('PUT', `/api/exchange/${id}/shipping`, { token: customer.token, body: shippingBody({ trackingNumber: 'TOO-LATE' }) });
    expect(late.status).toBe(409);
    expect(late.body.error).toBe('Shipping details can no longer be changed: the item has already been received.');
    expect((await t.request('GET', `/api/exchange/${id}`, { token: customer.token })).body.trackingNumber).toBe('FIXED-42');
  });

  test('nothing to correct before the first shipping details, and nothing on a pending request', async () => {
    const approved = await requestAt(t, 'approved', customer, admin, warehouseId);
    const early = await t.request('PUT', `/api/exchange/${approved}/shipping`, { token: customer.token, body: shippingBody() });
    expect(early.status).toBe(409);
    expect(early.body.error).toBe('There are no shipping details to correct yet. Please add them first.');
    const pending = await createRequest(t, customer);
    const res = await t.request('PUT', `/api/exchange/${pending}/shipping`, { token: customer.token, body: shippingBody() });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('Shipping details can only be added once the request is approved.');
  });

  test('declining needs feedback for the customer: none or blanks is a 400 and the request stays pending', async () => {
    const id = await createRequest(t, customer);
    for (const body of [{ status: 'declined' }, { status: 'declined', adminFeedback: '   ' }]) {
      const res = await t.request('PUT', `/api/admin/exchange-requests/${id}/status`, { token: admin.token, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Please tell the customer why the request is declined (Admin Feedback).');
    }
    expect((await t.request('GET', `/api/exchange/${id}`, { token: customer.token })).body.status).toBe('pending');
    const ok = await t.request('PUT', `/api/admin/exchange-requests/${id}/status`, { token: admin.token, body: { status: 'declined', adminFeedback: 'Not a printer part.' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'declined', adminFeedback: 'Not a printer part.' });
  });

  test("the customer's request says whether its credit has reached the shop", async () => {
    const id = await requestAt(t, 'received', customer, admin, warehouseId);
    expect((await t.request('GET', `/api/exchange/${id}`, { token: customer.token })).body.creditPushStatus).toBeNull();
    expect((await t.request('PUT', `/api/admin/exchange-requests/${id}/credit`, { token: admin.token, body: { creditAmount: 120 } })).status).toBe(200);
    const status = (await t.request('GET', `/api/exchange/${id}`, { token: customer.token })).body.creditPushStatus;
    expect(['pending', 'success', 'failed']).toContain(status);
    const row = await t.ctx.db.selectFrom('credit_ledger').select('push_status').where('exchange_request_id', '=', id).executeTakeFirstOrThrow();
    expect(status).toBe(row.push_status);
  });

  test("the credit history's search finds the customer's email it shows, and each record names its product", async () => {
    const id = await requestAt(t, 'credited', customer, admin, warehouseId, 75);
    const res = await t.request('GET', `/api/admin/credit-history?q=${encodeURIComponent(customer.email.slice(0, 12).toUpperCase())}`, { token: admin.token });
    expect(res.status).toBe(200);
    const mine = (res.body as { exchangeRequestId: string; customerEmail: string; productName: string | null }[]).find((r) => r.exchangeRequestId === id);
    expect(mine).toMatchObject({ customerEmail: customer.email, productName: expect.any(String) });
    expect((res.body as { customerEmail: string }[]).every((r) => r.customerEmail === customer.email)).toBe(true);
    const none = await t.request('GET', '/api/admin/credit-history?q=nobody-has-this-address%40example.com', { token: admin.token });
    expect(none.body).toEqual([]);
  });

  test('the admin queue sorts by a column either way; a bad sort is a 400, not a 500', async () => {
    const names = ['Sortq Beta', 'Sortq Alpha', 'Sortq Gamma'];
    for (const productName of names) await createRequest(t, customer, { productName });
    const list = async (query: string) => {
      const res = await t.request('GET', `/api/admin/exchange-requests?tab=0&q=sortq&${query}`, { token: admin.token });
      expect(res.status).toBe(200);
      return (res.body as { productName: string }[]).map((r) => r.productName);
    };
    expect(await list('')).toEqual([...names].reverse());
    expect(await list('sort=date&order=asc')).toEqual(names);
    expect(await list('sort=product&order=asc')).toEqual(['Sortq Alpha', 'Sortq Beta', 'Sortq Gamma']);
    expect(await list('sort=product&order=desc&page=1&pageSize=2')).toEqual(['Sortq Gamma', 'Sortq Beta']);
    for (const bad of ['sort=password', 'order=sideways', 'sort=product;drop']) {
      const res = await t.request('GET', `/api/admin/exchange-requests?${bad}`, { token: admin.token });
      expect(res.status).toBe(400);
    }
  });
});

describe.each(databaseKinds())('warehouse journey rules (%s)', (kind) => {
  let t: TestApp;
  let admin: Person;
  let customer: Person;
  beforeAll(async () => {
    t = await createTestApp(kind, { SIGNIN_LIMIT_PER_EMAIL: '1000' });
    admin = await signInPerson(t, 'wh.admin@swappoints.example', { admin: true });
    customer = await signInPerson(t);
  }, 60_000);
  afterAll(() => t.close());

  const save = (body: Record<string, unknown>) => t.request('POST', '/api/admin/warehouses', { token: admin.token, body });
  const base = { name: 'Chennai Intake', addressLine1: '1 Anna Salai', city: 'Chennai', state: 'Tamil Nadu', postalCode: '600002', country: 'India' };

  test('missing fields are named as the form labels them', async () => {
    const res = await save({ name: 'X', city: 'Pune' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Please fill in all required fields: Address Line 1, State, Postal Code, Country');
  });

  test("the postal code and phone are checked for the warehouse's country", async () => {
    const refused: [Record<string, unknown>, string][] = [
      [{ postalCode: '6000' }, 'Postal Code must be a 6-digit PIN code (like 560058) for India.'],
      [{ postalCode: '060002', country: 'IN' }, 'Postal Code must be a 6-digit PIN code (like 560058) for India.'],
      [{ contactPhone: '+91 98000' }, 'Contact Phone must be a phone number in India (+91 and the number, or the number alone).'],
      [{ contactPhone: 'call reception' }, 'Contact Phone may hold only digits, spaces, dashes, brackets and a leading +.'],
      [{ country: 'United States', postalCode: 'ABCDE' }, 'Postal Code must be a ZIP code (like 94105 or 94105-1234) for the United States.'],
    ];
    for (const [change, message] of refused) {
      const res = await save({ ...base, name: `Bad ${message.slice(0, 20)} ${Math.random()}`, ...change });
      expect({ change, status: res.status, error: res.body.error }).toEqual({ change, status: 400, error: message });
    }
    for (const change of [{ contactPhone: '+91 80 4000 1800' }, { contactPhone: '098000 00001' }, { country: 'USA', postalCode: '94105-1234', contactPhone: '+1 (415) 555-0100' }, { country: 'Kenya', postalCode: '00100', contactPhone: '+254 20 1234567' }]) {
      const res = await save({ ...base, name: `Good ${JSON.stringify(change)}`, ...change });
      expect({ change, status: res.status }).toEqual({ change, status: 201 });
    }
  });

  test('open requests shipping to a warehouse are listed before it is deleted; their snapshot keeps the address', async () => {
    const warehouse = (await createWarehouse(t, admin)).id;
    const open = await requestAt(t, 'shipped', customer, admin, warehouse);
    await requestAt(t, 'completed', customer, admin, warehouse);
    const list = await t.request('GET', `/api/admin/warehouses/${warehouse}/open-requests`, { token: admin.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([{ id: open, productName: expect.any(String), customerEmail: customer.email, status: 'approved' }]);
    expect((await t.request('GET', `/api/admin/warehouses/${warehouse}/open-requests`, { token: customer.token })).status).toBe(403);
    expect((await t.request('GET', '/api/admin/warehouses/not-a-uuid/open-requests', { token: admin.token })).status).toBe(404);
    expect((await t.request('DELETE', `/api/admin/warehouses/${warehouse}`, { token: admin.token })).status).toBe(200);
    const kept = await t.request('GET', `/api/exchange/${open}`, { token: customer.token });
    expect(kept.body.warehouseInfo).toMatchObject({ id: warehouse, addressLine1: 'Plot 18, Peenya Industrial Area' });
  });
});
