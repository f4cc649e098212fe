import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { validateWarehouse } from '#api/modules/warehouses/service.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { createWarehouse, requestAt, signInPerson, warehouseBody, type Person } from '#tests/helpers/fixtures.ts';

// databases and many requests per test: more room than bun's 5 s, also when several files run together
setDefaultTimeout(60_000);

describe('validateWarehouse', () => {
  test('lists the missing required fields by their camelCase names, in the spec’s order', () => {
    expect(validateWarehouse({})).toEqual({ missing: ['name', 'addressLine1', 'city', 'state', 'postalCode', 'country'] });
    expect(validateWarehouse({ ...warehouseBody(), city: '  ', postalCode: null })).toEqual({ missing: ['city', 'postalCode'] });
  });
  test('trims, turns empty optional fields into null, and isActive is true unless false', () => {
    const result = validateWarehouse({ ...warehouseBody({ name: '  Chennai Hub ', addressLine2: ' ', contactPhone: '' }), isActive: null });
    expect(result).toEqual({
      value: expect.objectContaining({ name: 'Chennai Hub', addressLine2: null, contactPhone: null, isActive: true }),
    });
    expect(validateWarehouse({ ...warehouseBody(), isActive: false })).toMatchObject({ value: { isActive: false } });
  });
});

describe.each(databaseKinds())('warehouses (%s)', (kind) => {
  let t: TestApp;
  let admin: Person;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signInPerson(t, 'valuer@swappoints.example', { admin: true });
  });
  afterAll(() => t.close());

  const call = (method: string, path: string, body?: unknown) => t.request(method, `/api/admin/warehouses${path}`, { token: admin.token, body });

  test("missing required fields: 'Please fill in all required fields: {list}'", async () => {
    const res = await call('POST', '', { name: 'Kochi Hub', city: 'Kochi', addressLine1: '' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Please fill in all required fields: Address Line 1, State, Postal Code, Country' });
    expect((await call('POST', '', {})).body.error).toBe('Please fill in all required fields: Name, Address Line 1, City, State, Postal Code, Country');
  });

  test('a field past its limit is refused with the sentence the form shows, naming it by its label', async () => {
    const base = { name: 'Kochi Hub', addressLine1: '1 MG Road', city: 'Kochi', state: 'Kerala', postalCode: '682001', country: 'India' };
    expect((await call('POST', '', { ...base, name: 'x'.repeat(201) })).body).toEqual({ error: 'Name can be at most 200 characters.' });
    expect((await call('POST', '', { ...base, addressLine1: 'x'.repeat(501) })).body).toEqual({ error: 'Address Line 1 can be at most 500 characters.' });
    expect((await call('POST', '', { ...base, postalCode: 'x'.repeat(51) })).body).toEqual({ error: 'Postal Code can be at most 50 characters.' });
    expect((await call('POST', '', { ...base, isActive: 'yes' })).body).toEqual({ error: 'Active must be on or off (true or false).' });
  });

  test('POST creates (201, isActive defaults to true); GET lists by name; PUT replaces; every field comes back', async () => {
    // names of this test's own: the list is searched down to them, whatever other tests made
    const mark = `m${crypto.randomUUID().slice(0, 8)}`;
    const { isActive: _, ...body } = { ...warehouseBody({ name: `${mark} Zeta Depot` }), isActive: undefined };
    const created = await call('POST', '', body);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), ...body, isActive: true });
    await createWarehouse(t, admin, { name: `${mark} alpha depot`, isActive: false, addressLine2: null, contactPerson: null, contactPhone: null });
    const list = await call('GET', `?q=${mark}`);
    expect(list.status).toBe(200);
    expect(list.body.map((w: { name: string }) => w.name)).toEqual([`${mark} alpha depot`, `${mark} Zeta Depot`]);
    expect(list.body[0]).toMatchObject({ isActive: false, addressLine2: null, contactPerson: null, contactPhone: null });

    const updated = await call('PUT', `/${created.body.id}`, { ...body, city: 'Mysuru', isActive: false });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.body.id, city: 'Mysuru', isActive: false });
    const missing = await call('PUT', `/${created.body.id}`, { ...body, country: '' });
    expect(missing.body).toEqual({ error: 'Please fill in all required fields: Country' });
    expect((await call('PUT', `/${crypto.randomUUID()}`, body)).status).toBe(404);
    expect((await call('PUT', '/nope', body)).body).toEqual({ error: 'Warehouse not found' });
  });

  test('names are unique whatever their case (409), on create and on rename', async () => {
    await createWarehouse(t, admin, { name: 'Hyderabad Hub' });
    const dup = await call('POST', '', warehouseBody({ name: 'HYDERABAD HUB' }));
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: 'A warehouse named HYDERABAD HUB already exists' });
    const other = await createWarehouse(t, admin, { name: 'Secunderabad Hub' });
    const rename = await call('PUT', `/${other.id}`, warehouseBody({ name: 'hyderabad hub' }));
    expect(rename.status).toBe(409);
    expect(rename.body).toEqual({ error: 'A warehouse named hyderabad hub already exists' });
  });

  test('deleting a warehouse that requests point to loses nothing: they keep its address', async () => {
    const customer = await signInPerson(t);
    const w = await createWarehouse(t, admin, { name: 'Kolkata Hub', city: 'Kolkata' });
    const id = await requestAt(t, 'approved', customer, admin, w.id);
    const res = await call('DELETE', `/${w.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, id: w.id });
    const detail = await t.request('GET', `/api/exchange/${id}`, { token: customer.token });
    expect(detail.body.warehouseId).toBeNull();
    expect(detail.body.warehouseInfo).toMatchObject({ id: w.id, name: 'Kolkata Hub', city: 'Kolkata' });
    expect((await call('DELETE', `/${w.id}`)).status).toBe(404);
  });

  test('the list pages and searches with X-Total-Count', async () => {
    const mark = `p${crypto.randomUUID().slice(0, 8)}`;
    for (const [name, city] of [['Agra Hub', 'Agra'], ['Bhopal Hub', 'Bhopal'], ['Cuttack Hub', `Cuttack ${mark}`]]) {
      await createWarehouse(t, admin, { name: `${mark} ${name}`, city });
    }
    const page = await call('GET', `?q=${mark}&page=2&pageSize=2`);
    expect(page.headers.get('x-total-count')).toBe('3');
    expect(page.body.map((w: { name: string }) => w.name)).toEqual([`${mark} Cuttack Hub`]);
    const all = await call('GET', '?page=1&pageSize=2');
    expect(all.body).toHaveLength(2);
    expect(Number(all.headers.get('x-total-count'))).toBeGreaterThanOrEqual(3);
    // by city too, in any case
    const found = await call('GET', `?q=CUTTACK ${mark.toUpperCase()}`);
    expect(found.body.map((w: { name: string }) => w.name)).toEqual([`${mark} Cuttack Hub`]);
  });
});

describe.each(databaseKinds())('credit history (%s)', (kind) => {
  let t: TestApp;
  let admin: Person;
  let customers: Person[];
  let requests: string[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signInPerson(t, 'valuer@swappoints.example', { admin: true });
    customers = [await signInPerson(t), await signInPerson(t)];
    const w = (await createWarehouse(t, admin)).id;
    requests = [];
    for (const [i, amount] of [100, 200, 300].entries()) {
      requests.push(await requestAt(t, 'credited', customers[i % 2]!, admin, w, amount));
      await Bun.sleep(3);
    }
    await t.ctx.db.updateTable('credit_ledger').set({ push_status: 'failed', last_push_error: 'HTTP 502' }).where('exchange_request_id', '=', requests[1]!).execute();
  });
  afterAll(() => t.close());

  const history = (query = '') => t.request('GET', `/api/admin/credit-history${query}`, { token: admin.token });

  test('every exchange credit, newest first, with the spec’s fields and the push details', async () => {
    const res = await history();
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect(res.body.map((r: { amount: number }) => r.amount)).toEqual([300, 200, 100]);
    expect(res.body[1]).toEqual({
      id: expect.any(Number),
      userId: customers[1]!.id,
      exchangeRequestId: requests[1],
      type: 'exchange_credit',
      amount: 200,
      baseAmount: 200,
      bonusAmount: 0,
      currency: 'INR',
      loyaltyPointsSuccess: false,
      createdAt: expect.any(String),
      pushStatus: 'failed',
      pushError: 'HTTP 502',
      pushAttempts: 1,
      pushedAt: expect.any(String),
      customerEmail: customers[1]!.email,
      transactionId: expect.any(String),
      note: null,
      productName: 'HP 305 Black Ink Cartridge',
    });
    expect(res.body[0]).toMatchObject({ loyaltyPointsSuccess: true, pushStatus: 'success' });
  });

  test('q finds a record by a part of its user ID or exchange ID, in any case', async () => {
    const byExchange = await history(`?q=${requests[2]!.slice(4, 16).toUpperCase()}`);
    expect(byExchange.body.map((r: { exchangeRequestId: string }) => r.exchangeRequestId)).toEqual([requests[2]]);
    const byUser = await history(`?q=${customers[0]!.id}`);
    expect(byUser.body.map((r: { amount: number }) => r.amount)).toEqual([300, 100]);
    expect((await history('?q=no-such-id')).body).toEqual([]);
  });

  test('status filters; page and pageSize page', async () => {
    expect((await history('?status=failed')).body.map((r: { amount: number }) => r.amount)).toEqual([200]);
    const page = await history('?page=2&pageSize=2');
    expect(page.headers.get('x-total-count')).toBe('3');
    expect(page.body.map((r: { amount: number }) => r.amount)).toEqual([100]);
    expect((await history('?pageSize=101')).status).toBe(400);
    expect((await history('?status=Success')).status).toBe(400);
  });
});
