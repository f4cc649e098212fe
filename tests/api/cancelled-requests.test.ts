import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { createRequest, createWarehouse, requestAt, signInPerson, type Person } from '#tests/helpers/fixtures.ts';

setDefaultTimeout(60_000);

/**
 * Issue 26, point 8: a cancelled request stays deleted for every list, count and cap, and the
 * customer finds what they cancelled under GET /api/exchange/cancelled. An admin's deletion is not a
 * cancellation.
 */
describe.each(databaseKinds())('cancelled requests (%s)', (kind) => {
  let t: TestApp;
  let admin: Person;

  beforeAll(async () => {
    t = await createTestApp(kind, { MAX_OPEN_REQUESTS_PER_CUSTOMER: '2' });
    admin = await signInPerson(t, 'admin.user@swappoints.example', { admin: true });
  });
  afterAll(() => t.close());

  const cancelled = (who: Person, query = '') => t.request('GET', `/api/exchange/cancelled${query}`, { token: who.token });
  const cancel = async (who: Person, id: string) => {
    const res = await t.request('DELETE', `/api/exchange/${id}`, { token: who.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, id });
  };

  test('the owner finds a cancelled request under cancelled, and nowhere else; another customer does not', async () => {
    const customer = await signInPerson(t);
    const other = await signInPerson(t);
    const kept = await createRequest(t, customer, { productName: 'Kept Printer', brand: 'Epson' });
    const id = await createRequest(t, customer, { productName: 'Old Toner Drum', brand: 'Brother', condition: 'fair' });
    const created = (await t.request('GET', `/api/exchange/${id}`, { token: customer.token })).body.createdAt as string;
    const before = Date.now();
    await cancel(customer, id);

    const mine = await cancelled(customer);
    expect(mine.status).toBe(200);
    expect(mine.headers.get('x-total-count')).toBe('1');
    expect(mine.body).toHaveLength(1);
    expect(mine.body[0]).toMatchObject({ id, productName: 'Old Toner Drum', brand: 'Brother', condition: 'fair', createdAt: created });
    expect(Object.keys(mine.body[0]).sort()).toEqual(['brand', 'cancelledAt', 'condition', 'createdAt', 'id', 'productName']);
    expect(Date.parse(mine.body[0].cancelledAt)).toBeGreaterThanOrEqual(before - 5_000);

    const theirs = await cancelled(other);
    expect(theirs.status).toBe(200);
    expect(theirs.body).toEqual([]);
    expect(theirs.headers.get('x-total-count')).toBe('0');

    // gone from the customer's list and the admin's queue, lists and counts
    const list = await t.request('GET', '/api/exchange', { token: customer.token });
    expect(list.body.map((r: { id: string }) => r.id)).toEqual([kept]);
    expect(list.headers.get('x-total-count')).toBe('1');
    expect((await t.request('GET', `/api/exchange/${id}`, { token: customer.token })).status).toBe(404);
    const queue = await t.request('GET', `/api/admin/exchange-requests?q=${encodeURIComponent(customer.email)}`, { token: admin.token });
    expect(queue.body.map((r: { id: string }) => r.id)).toEqual([kept]);
    const counts = await t.request('GET', `/api/admin/exchange-requests/counts?q=${encodeURIComponent(customer.email)}`, { token: admin.token });
    expect(counts.status).toBe(200);
    expect(Object.values(counts.body).reduce((a: number, n) => a + Number(n), 0)).toBe(1);
  });

  test('a cancelled request does not hold a place under the open-requests cap', async () => {
    const customer = await signInPerson(t);
    await createRequest(t, customer);
    const second = await createRequest(t, customer);
    await cancel(customer, second);
    await createRequest(t, customer); // refused with 429 if the cancelled one still counted
    expect((await cancelled(customer)).body.map((r: { id: string }) => r.id)).toEqual([second]);
  });

  test('an admin deletion is not a cancellation and is not listed', async () => {
    const customer = await signInPerson(t);
    const id = await createRequest(t, customer);
    const res = await t.request('DELETE', `/api/admin/exchange-requests/${id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect((await cancelled(customer)).body).toEqual([]);
    expect(await t.ctx.db.selectFrom('cancelled_requests').select('request_id').where('request_id', '=', id).execute()).toEqual([]);
  });

  test('a refused cancel (not pending) keeps nothing; paging, search and the last cancelled first', async () => {
    const customer = await signInPerson(t);
    const ids: string[] = [];
    for (const name of ['Alpha Scanner', 'Beta Scanner', 'Gamma Router']) {
      const id = await createRequest(t, customer, { productName: name });
      await cancel(customer, id);
      ids.push(id);
    }
    expect((await cancelled(customer)).body.map((r: { id: string }) => r.id)).toEqual([...ids].reverse());
    const page = await cancelled(customer, '?page=2&pageSize=2');
    expect(page.headers.get('x-total-count')).toBe('3');
    expect(page.body.map((r: { id: string }) => r.id)).toEqual([ids[0]]);
    const search = await cancelled(customer, '?q=scanner&pageSize=10');
    expect(search.headers.get('x-total-count')).toBe('2');
    expect(search.body.map((r: { productName: string }) => r.productName)).toEqual(['Beta Scanner', 'Alpha Scanner']);

    const approved = await requestAt(t, 'approved', customer, admin, (await createWarehouse(t, admin)).id);
    expect((await t.request('DELETE', `/api/exchange/${approved}`, { token: customer.token })).status).toBe(409);
    expect((await cancelled(customer)).headers.get('x-total-count')).toBe('3');
  });

  test('signed out is 401; bad paging is 400, never a 500', async () => {
    expect((await t.request('GET', '/api/exchange/cancelled')).status).toBe(401);
    const customer = await signInPerson(t);
    for (const query of ['?page=0', '?pageSize=101', '?page=x', `?q=${'a'.repeat(201)}`]) {
      const res = await cancelled(customer, query);
      expect(res.status).toBe(400);
      expect(typeof res.body.error).toBe('string');
    }
  });
});

