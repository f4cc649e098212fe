import { afterAll, afterEach, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import type { EventType } from '#api/db/types.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { SHOPIFY_TOKEN, shopifyEnv } from '#tests/helpers/fake-shopify-backend.ts';
import { startFakeShopify, type FakeShopify } from '#tests/helpers/fake-shopify.ts';
import { createRequest, createWarehouse, mailsTo, requestAt, shippingBody, signInPerson, uniqueEmail, type Person } from '#tests/helpers/fixtures.ts';

// databases and many requests per test: more room than bun's 5 s, also when several files run together
setDefaultTimeout(60_000);

/**
 * Races through the real app. On PostgreSQL the requests truly run at once on a pool of
 * connections, so these prove the conditional updates and the ledger's unique key; PGlite (one
 * connection) runs them one after another and must give the same answers.
 */
describe.each(databaseKinds())('concurrent changes have one winner (%s)', (kind) => {
  let t: TestApp;
  let admin: Person;
  let secondAdmin: Person;
  let customer: Person;
  let warehouseId: string;
  let otherWarehouseId: string;

  let fake: FakeShopify;
  let shopCustomerId: string;

  beforeAll(async () => {
    // the shop is the fake Shopify on its socket: its pushes are counted there, not by a wrapper of ours
    fake = await startFakeShopify({ token: SHOPIFY_TOKEN });
    t = await createTestApp(kind, { ...shopifyEnv(fake), SHOPIFY_TIMEOUT_MS: '30000' });
    admin = await signInPerson(t, 'valuer@swappoints.example', { admin: true });
    secondAdmin = await signInPerson(t, 'second.valuer@swappoints.example', { admin: true });
    const email = uniqueEmail();
    shopCustomerId = fake.addCustomer(email);
    customer = await signInPerson(t, email);
    warehouseId = (await createWarehouse(t, admin)).id;
    otherWarehouseId = (await createWarehouse(t, admin)).id;
  });
  afterEach(() => fake.clearFaults());
  afterAll(async () => {
    await t.close();
    fake.close();
  });

  const statuses = (responses: { status: number }[]) => responses.map((r) => r.status).sort();
  const eventsOfType = (id: string, type: EventType) =>
    t.ctx.db.selectFrom('request_events').select('id').where('request_id', '=', id).where('type', '=', type).execute();

  test('20 concurrent credit assignments on one request: exactly one 200, one ledger row, one credit in the shop', async () => {
    for (let round = 0; round < 3; round++) {
      const id = await requestAt(t, 'received', customer, admin, warehouseId);
      const creditsAsked = fake.operations('SwapPointsCredit');
      const creditsMade = fake.transactionsOf(shopCustomerId).length;
      // the shop holds its answer to the winner until every loser has had its 409: losers never wait for the shop
      const losersAnswered = Promise.withResolvers<void>();
      fake.inject({ kind: 'slow', delayMs: 0, until: losersAnswered.promise }, 'SwapPointsCredit');
      let losers = 0;
      let responses;
      try {
        responses = await Promise.all(
          Array.from({ length: 20 }, async (_, i) => {
            const res = await t.request('PUT', `/api/admin/exchange-requests/${id}/credit`, { token: i % 2 ? admin.token : secondAdmin.token, body: { creditAmount: 100 + i } });
            if (res.status === 409 && ++losers === 19) losersAnswered.resolve();
            return res;
          }),
        );
      } finally {
        losersAnswered.resolve();
      }
      expect(statuses(responses)).toEqual([200, ...Array(19).fill(409)]);
      const winner = responses.find((r) => r.status === 200)!;
      expect(winner.body).toMatchObject({ loyaltyPointsSuccess: true });
      for (const loser of responses.filter((r) => r.status === 409)) expect(loser.body).toEqual({ error: 'Credit has already been assigned to this request.' });
      const ledger = await t.ctx.db.selectFrom('credit_ledger').selectAll().where('exchange_request_id', '=', id).execute();
      expect(ledger).toHaveLength(1);
      expect(Number(ledger[0]!.amount)).toBe(winner.body.creditAmount);
      expect(ledger[0]!.push_status).toBe('success');
      expect(fake.operations('SwapPointsCredit') - creditsAsked).toBe(1);
      const made = fake.transactionsOf(shopCustomerId).slice(creditsMade);
      expect(made.map((x) => x.cents)).toEqual([winner.body.creditAmount * 100]);
      expect(ledger[0]!.external_transaction_id).toBe(made[0]!.id);
      expect(await eventsOfType(id, 'credited')).toHaveLength(1);
      const detail = await t.request('GET', `/api/admin/exchange-requests/${id}`, { token: admin.token });
      expect(detail.body.creditAmount).toBe(winner.body.creditAmount);
    }
  });

  test('approve and decline at once: one wins, the other gets 409; one event, one mail', async () => {
    for (let round = 0; round < 8; round++) {
      const id = await createRequest(t, customer);
      const [approve, decline] = await Promise.all([
        t.request('PUT', `/api/admin/exchange-requests/${id}/status`, { token: admin.token, body: { status: 'approved', warehouseId } }),
        t.request('PUT', `/api/admin/exchange-requests/${id}/status`, { token: secondAdmin.token, body: { status: 'declined', adminFeedback: 'no' } }),
      ]);
      expect(statuses([approve, decline])).toEqual([200, 409]);
      const winner = approve.status === 200 ? 'approved' : 'declined';
      const row = await t.ctx.db.selectFrom('exchange_requests').select(['status', 'warehouse_snapshot']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.status).toBe(winner);
      expect(row.warehouse_snapshot === null).toBe(winner === 'declined');
      expect((await eventsOfType(id, 'approved')).length + (await eventsOfType(id, 'declined')).length).toBe(1);
      const decisionMails = [...(await mailsTo(t, customer.email, 'request_approved')), ...(await mailsTo(t, customer.email, 'request_declined'))];
      expect(decisionMails.filter((m) => m.link?.endsWith(`/exchange/${id}`))).toHaveLength(1);
    }
  });

  test('two admins approving at once with different warehouses: one decision, one snapshot, the other sees it (200 no-op)', async () => {
    for (let round = 0; round < 5; round++) {
      const id = await createRequest(t, customer);
      const responses = await Promise.all([
        t.request('PUT', `/api/admin/exchange-requests/${id}/status`, { token: admin.token, body: { status: 'approved', warehouseId } }),
        t.request('PUT', `/api/admin/exchange-requests/${id}/status`, { token: secondAdmin.token, body: { status: 'approved', warehouseId: otherWarehouseId } }),
      ]);
      expect(statuses(responses)).toEqual([200, 200]);
      expect(responses[0]!.body.warehouseId).toBe(responses[1]!.body.warehouseId);
      expect(await eventsOfType(id, 'approved')).toHaveLength(1);
    }
  });

  test('the customer cancelling while an admin approves: exactly one of them succeeds', async () => {
    for (let round = 0; round < 10; round++) {
      const id = await createRequest(t, customer);
      const [cancel, approve] = await Promise.all([
        t.request('DELETE', `/api/exchange/${id}`, { token: customer.token }),
        t.request('PUT', `/api/admin/exchange-requests/${id}/status`, { token: admin.token, body: { status: 'approved', warehouseId } }),
      ]);
      expect([cancel.status, approve.status].filter((status) => status === 200)).toHaveLength(1);
      const row = await t.ctx.db.selectFrom('exchange_requests').select('status').where('id', '=', id).executeTakeFirst();
      if (cancel.status === 200) {
        expect(approve.status).toBe(404);
        expect(row).toBeUndefined();
        expect(await eventsOfType(id, 'approved')).toHaveLength(0);
      } else {
        expect(approve.status).toBe(200);
        expect(cancel.status).toBe(409);
        expect(cancel.body).toEqual({ error: 'Only a pending request can be cancelled.' });
        expect(row?.status).toBe('approved');
        expect(await eventsOfType(id, 'cancelled')).toHaveLength(0);
      }
    }
  });

  test('a double-submitted shipping form: one 200, one 409, one shipped event', async () => {
    const id = await requestAt(t, 'approved', customer, admin, warehouseId);
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, i) => t.request('POST', `/api/exchange/${id}/shipping`, { token: customer.token, body: shippingBody({ trackingNumber: `TRK-${i}` }) })),
    );
    expect(statuses(responses)).toEqual([200, 409, 409, 409, 409]);
    expect(await eventsOfType(id, 'shipped')).toHaveLength(1);
  });

  test('completing twice at once: one completion, one event, one mail', async () => {
    const id = await requestAt(t, 'credited', customer, admin, warehouseId);
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => t.request('PUT', `/api/admin/exchange-requests/${id}/status`, { token: admin.token, body: { status: 'completed' } })),
    );
    // the winner changes it; the others find it already completed (a no-op)
    expect(statuses(responses)).toEqual(Array(6).fill(200));
    expect(await eventsOfType(id, 'completed')).toHaveLength(1);
    expect((await mailsTo(t, customer.email, 'exchange_completed')).filter((m) => m.link?.endsWith(`/exchange/${id}`))).toHaveLength(1);
  });
});
