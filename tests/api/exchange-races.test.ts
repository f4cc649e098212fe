import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import type { EventType } from '#api/db/types.ts';
import type { CreditPush, ShopBackend } from '#api/integrations/shop/types.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { createRequest, createWarehouse, mailsTo, requestAt, shippingBody, signInPerson, type Person } from '#tests/helpers/fixtures.ts';

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

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signInPerson(t, 'valuer@swappoints.example', { admin: true });
    secondAdmin = await signInPerson(t, 'second.valuer@swappoints.example', { admin: true });
    customer = await signInPerson(t);
    warehouseId = (await createWarehouse(t, admin)).id;
    otherWarehouseId = (await createWarehouse(t, admin)).id;
  });
  afterAll(() => t.close());

  const statuses = (responses: { status: number }[]) => responses.map((r) => r.status).sort();
  const eventsOfType = (id: string, type: EventType) =>
    t.ctx.db.selectFrom('request_events').select('id').where('request_id', '=', id).where('type', '=', type).execute();

  test('20 concurrent credit assignments on one request: exactly one 200, one ledger row, one push', async () => {
    const pushes: CreditPush[] = [];
    const embedded = t.ctx.shop;
    const counting: ShopBackend = {
      ...embedded,
      pushCredit: async (push) => {
        pushes.push(push);
        await Bun.sleep(20); // a shop takes a while; the losers must not wait for it to lose
        return embedded.pushCredit(push);
      },
    };
    for (let round = 0; round < 3; round++) {
      pushes.length = 0;
      const id = await requestAt(t, 'received', customer, admin, warehouseId);
      t.ctx.shop = counting;
      let responses;
      try {
        responses = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            t.request('PUT', `/api/admin/exchange-requests/${id}/credit`, { token: i % 2 ? admin.token : secondAdmin.token, body: { creditAmount: 100 + i } }),
          ),
        );
      } finally {
        t.ctx.shop = embedded;
      }
      expect(statuses(responses)).toEqual([200, ...Array(19).fill(409)]);
      const winner = responses.find((r) => r.status === 200)!;
      for (const loser of responses.filter((r) => r.status === 409)) expect(loser.body).toEqual({ error: 'Credit has already been assigned to this request.' });
      const ledger = await t.ctx.db.selectFrom('credit_ledger').selectAll().where('exchange_request_id', '=', id).execute();
      expect(ledger).toHaveLength(1);
      expect(Number(ledger[0]!.amount)).toBe(winner.body.creditAmount);
      expect(ledger[0]!.push_status).toBe('success');
      expect(pushes).toHaveLength(1);
      expect(pushes[0]!.ledgerId).toBe(ledger[0]!.id);
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

  test('the customer cancelling while an admin approves: both cannot succeed', async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 10; round++) {
      const id = await createRequest(t, customer);
      const [cancel, approve] = await Promise.all([
        t.request('DELETE', `/api/exchange/${id}`, { token: customer.token }),
        t.request('PUT', `/api/admin/exchange-requests/${id}/status`, { token: admin.token, body: { status: 'approved', warehouseId } }),
      ]);
      expect(cancel.status === 200 && approve.status === 200).toBe(false);
      const row = await t.ctx.db.selectFrom('exchange_requests').select('status').where('id', '=', id).executeTakeFirst();
      if (cancel.status === 200) {
        outcomes.add('cancelled');
        expect(approve.status).toBe(404);
        expect(row).toBeUndefined();
        expect(await eventsOfType(id, 'approved')).toHaveLength(0);
      } else {
        outcomes.add('approved');
        expect(approve.status).toBe(200);
        expect(cancel.status).toBe(409);
        expect(cancel.body).toEqual({ error: 'Only a pending request can be cancelled.' });
        expect(row?.status).toBe('approved');
        expect(await eventsOfType(id, 'cancelled')).toHaveLength(0);
      }
    }
    expect(outcomes.size).toBeGreaterThan(0);
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
