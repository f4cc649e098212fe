import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { revokeAdmin } from '#api/modules/users/service.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { createWarehouse, requestAt, shippingBody, signInPerson, type Person } from '#tests/helpers/fixtures.ts';

// databases and many requests per test: more room than bun's 5 s, also when several files run together
setDefaultTimeout(60_000);

const CUSTOMER_NOT_FOUND = "Exchange request not found or you don't have permission to view it.";

type Call = [method: string, path: string, body?: unknown];

/** Every exchange call, for a request id, a ledger id and a warehouse id. */
function customerCalls(id: string): Call[] {
  return [
    ['GET', `/api/exchange/${id}`],
    ['DELETE', `/api/exchange/${id}`],
    ['POST', `/api/exchange/${id}/shipping`, shippingBody()],
  ];
}

function adminCalls(id: string, ledgerId: number | string, warehouseId: string): Call[] {
  return [
    ['GET', '/api/admin/exchange-requests'],
    ['GET', '/api/admin/exchange-requests?tab=1&page=1&pageSize=5'],
    ['GET', '/api/admin/exchange-requests/counts'],
    ['GET', `/api/admin/exchange-requests/${id}`],
    ['PUT', `/api/admin/exchange-requests/${id}/status`, { status: 'completed' }],
    ['PUT', `/api/admin/exchange-requests/${id}/transit`, { transitStatus: 'received' }],
    ['PUT', `/api/admin/exchange-requests/${id}/credit`, { creditAmount: 10 }],
    ['DELETE', `/api/admin/exchange-requests/${id}`],
    ['GET', '/api/admin/credit-history'],
    ['POST', `/api/admin/credit-history/${ledgerId}/retry`],
    ['GET', '/api/admin/warehouses'],
    ['POST', '/api/admin/warehouses', { name: 'Intruder Depot', addressLine1: 'x', city: 'x', state: 'x', postalCode: 'x', country: 'x' }],
    ['PUT', `/api/admin/warehouses/${warehouseId}`, { name: 'Renamed', addressLine1: 'x', city: 'x', state: 'x', postalCode: 'x', country: 'x' }],
    ['DELETE', `/api/admin/warehouses/${warehouseId}`],
  ];
}

describe.each(databaseKinds())('who may call what (%s)', (kind) => {
  let t: TestApp;
  let admin: Person;
  let owner: Person;
  let stranger: Person;
  let warehouseId: string;
  let credited: string;
  let ledgerId: number;

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signInPerson(t, 'valuer@swappoints.example', { admin: true });
    owner = await signInPerson(t);
    stranger = await signInPerson(t);
    warehouseId = (await createWarehouse(t, admin)).id;
    credited = await requestAt(t, 'credited', owner, admin, warehouseId);
    ledgerId = (await t.ctx.db.selectFrom('credit_ledger').select('id').where('exchange_request_id', '=', credited).executeTakeFirstOrThrow()).id;
  });
  afterAll(() => t.close());

  const snapshot = async (id: string) => ({
    request: await t.ctx.db.selectFrom('exchange_requests').selectAll().where('id', '=', id).executeTakeFirst(),
    events: (await t.ctx.db.selectFrom('request_events').select('id').where('request_id', '=', id).execute()).length,
  });

  test("every customer endpoint refuses another customer's request with the spec's 404, and changes nothing", async () => {
    for (const stage of ['pending', 'approved'] as const) {
      const id = await requestAt(t, stage, owner, admin, warehouseId);
      const before = await snapshot(id);
      for (const [method, path, body] of customerCalls(id)) {
        const res = await t.request(method, path, { token: stranger.token, body });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body).toEqual({ error: CUSTOMER_NOT_FOUND });
      }
      // an admin is a customer too on these endpoints: not their request, not found
      for (const [method, path, body] of customerCalls(id)) expect((await t.request(method, path, { token: admin.token, body })).status).toBe(404);
      expect(await snapshot(id)).toEqual(before);
    }
    // and another customer's list never shows it
    const list = await t.request('GET', '/api/exchange', { token: stranger.token });
    expect(list.body).toEqual([]);
  });

  test('every admin endpoint refuses a customer with 403, and changes nothing', async () => {
    const before = await snapshot(credited);
    const warehousesBefore = await t.ctx.db.selectFrom('warehouses').selectAll().orderBy('id').execute();
    for (const [method, path, body] of adminCalls(credited, ledgerId, warehouseId)) {
      const res = await t.request(method, path, { token: owner.token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toEqual({ error: 'You need admin access for this.' });
    }
    expect(await snapshot(credited)).toEqual(before);
    expect(await t.ctx.db.selectFrom('warehouses').selectAll().orderBy('id').execute()).toEqual(warehousesBefore);
  });

  test('no token is 401 everywhere', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/exchange'],
      ['POST', '/api/exchange', {}],
      ...customerCalls(credited),
      ...adminCalls(credited, ledgerId, warehouseId),
    ] as Call[]) {
      const res = await t.request(method, path, { body });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body).toEqual({ error: 'Please sign in to continue.' });
    }
  });

  test('a revoked session is refused everywhere, customer and admin alike', async () => {
    const customerToken = await t.signIn(owner.email);
    const adminToken = await t.signIn(admin.email, { admin: true });
    expect((await t.request('GET', '/api/exchange', { token: customerToken })).status).toBe(200);
    expect((await t.request('GET', '/api/admin/warehouses', { token: adminToken })).status).toBe(200);
    for (const token of [customerToken, adminToken]) expect((await t.request('POST', '/api/auth/logout', { token })).status).toBe(200);
    const calls: Call[] = [['GET', '/api/exchange'], ['POST', '/api/exchange', {}], ...customerCalls(credited), ...adminCalls(credited, ledgerId, warehouseId)];
    for (const token of [customerToken, adminToken]) {
      for (const [method, path, body] of calls) {
        const res = await t.request(method, path, { token, body });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(res.body).toEqual({ error: 'Your session has ended. Please sign in again.' });
      }
    }
    expect((await t.request('GET', `/api/exchange/${credited}`, { token: owner.token })).status).toBe(200);
  });

  test('an admin whose admin access is revoked is refused admin calls at once', async () => {
    const demoted = await signInPerson(t, 'temp.valuer@swappoints.example', { admin: true });
    expect((await t.request('GET', '/api/admin/exchange-requests/counts', { token: demoted.token })).status).toBe(200);
    await revokeAdmin(t.ctx.db, demoted.email);
    for (const [method, path, body] of adminCalls(credited, ledgerId, warehouseId)) {
      expect((await t.request(method, path, { token: demoted.token, body })).status, `${method} ${path}`).toBe(403);
    }
  });

  test('a cookie-authenticated change from another site is refused', async () => {
    const id = await requestAt(t, 'pending', owner, admin, warehouseId);
    const res = await t.request('DELETE', `/api/exchange/${id}`, { headers: { cookie: `sp_session=${owner.token}`, origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expect((await t.request('GET', `/api/exchange/${id}`, { token: owner.token })).status).toBe(200);
  });
});
