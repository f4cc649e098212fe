import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { addCustomer } from '#api/modules/customers/service.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { createRequest, createWarehouse, mailsTo, requestAt, signInPerson, uniqueEmail, type Person, type Stage } from '#tests/helpers/fixtures.ts';

// databases and many requests per test: more room than bun's 5 s, also when several files run together
setDefaultTimeout(60_000);

const NOT_FOUND = 'Exchange request not found';

describe.each(databaseKinds())('admin exchange calls (%s)', (kind) => {
  let t: TestApp;
  let admin: Person;
  let customer: Person;
  let warehouseId: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signInPerson(t, 'valuer@swappoints.example', { admin: true });
    const email = uniqueEmail('asha');
    customer = await signInPerson(t, email);
    // the shop's customer directory knows her name
    await addCustomer(t.ctx.db, { email, name: 'Asha Rao', shopCustomerId: '7301001001' });
    warehouseId = (await createWarehouse(t, admin, { name: 'Delhi NCR Warehouse', city: 'Gurugram', state: 'Haryana' })).id;
  });
  afterAll(() => t.close());

  const setStatus = (id: string, body: Record<string, unknown>) => t.request('PUT', `/api/admin/exchange-requests/${id}/status`, { token: admin.token, body });
  const eventsOf = async (id: string) => (await t.request('GET', `/api/admin/exchange-requests/${id}`, { token: admin.token })).body.events;

  describe('lists, tabs and counts', () => {
    let lister: TestApp;
    let byStage: Record<string, string>;
    let boss: Person;
    let people: Person[];
    let listerWarehouse: string;

    beforeAll(async () => {
      // a database of its own, so the counts are exact
      lister = await createTestApp(kind);
      boss = await signInPerson(lister, 'boss@swappoints.example', { admin: true });
      people = [await signInPerson(lister, 'meera.iyer@example.com'), await signInPerson(lister, 'kiran.patel@example.com')];
      const w = (await createWarehouse(lister, boss)).id;
      listerWarehouse = w;
      const stages: Stage[] = ['pending', 'approved', 'shipped', 'received', 'credited', 'completed', 'declined'];
      byStage = {};
      for (const [i, stage] of stages.entries()) {
        byStage[stage] = await requestAt(lister, stage, people[i % 2]!, boss, w);
        await Bun.sleep(3);
      }
      // a second pending one, and an item being inspected (still in transit for the tabs)
      byStage.pending2 = await createRequest(lister, people[1]!, { productName: 'Maintenance Kit', brand: 'Kyocera' });
      byStage.inspecting = await requestAt(lister, 'shipped', people[0]!, boss, w);
      await lister.ctx.db.updateTable('exchange_requests').set({ transit_status: 'inspecting' }).where('id', '=', byStage.inspecting).execute();
    });
    afterAll(() => lister.close());

    const ids = async (query: string) => {
      const res = await lister.request('GET', `/api/admin/exchange-requests${query}`, { token: boss.token });
      expect(res.status).toBe(200);
      return (res.body as { id: string }[]).map((r) => r.id).sort();
    };
    const sorted = (...keys: string[]) => keys.map((k) => byStage[k]!).sort();

    test('every request, newest first, each with userEmail; a plain array without paging parameters', async () => {
      const res = await lister.request('GET', '/api/admin/exchange-requests', { token: boss.token });
      expect(res.body).toHaveLength(9);
      expect(res.headers.get('x-total-count')).toBe('9');
      const times = res.body.map((r: { createdAt: string }) => r.createdAt);
      expect([...times].sort().reverse()).toEqual(times);
      for (const row of res.body) expect(people.map((p) => p.email)).toContain(row.userEmail);
    });

    test('tab membership is exactly spec §4', async () => {
      expect(await ids('?tab=0')).toEqual(sorted('pending', 'pending2'));
      expect(await ids('?tab=1')).toEqual(sorted('approved'));
      expect(await ids('?tab=2')).toEqual(sorted('shipped', 'inspecting'));
      expect(await ids('?tab=3')).toEqual(sorted('received', 'credited'));
    });

    test('GET …/counts gives the badge numbers of tabs 0-3', async () => {
      const res = await lister.request('GET', '/api/admin/exchange-requests/counts', { token: boss.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ pending: 2, awaitingShipping: 1, inTransit: 2, received: 2 });
      const searched = await lister.request('GET', '/api/admin/exchange-requests/counts?q=kyocera', { token: boss.token });
      expect(searched.body).toEqual({ pending: 1, awaitingShipping: 0, inTransit: 0, received: 0 });
    });

    test('q searches product name, brand and user email, case-insensitively (not the description)', async () => {
      expect(await ids('?q=MAINTENANCE')).toEqual(sorted('pending2'));
      expect(await ids('?q=kyoc')).toEqual(sorted('pending2'));
      expect((await ids('?q=meera.iyer')).length).toBe(5);
      expect((await ids('?q=KIRAN.PATEL@EXAMPLE.COM')).length).toBe(4);
      expect(await ids('?q=bulk%20order')).toEqual([]);
      expect(await ids('?tab=0&q=kiran')).toEqual(sorted('pending2'));
    });

    test('status filters; page and pageSize page with X-Total-Count; bad values are 400', async () => {
      expect(await ids('?status=completed')).toEqual(sorted('completed'));
      const page = await lister.request('GET', '/api/admin/exchange-requests?page=2&pageSize=4', { token: boss.token });
      expect(page.headers.get('x-total-count')).toBe('9');
      expect(page.body).toHaveLength(4);
      const all = await lister.request('GET', '/api/admin/exchange-requests', { token: boss.token });
      expect(page.body.map((r: { id: string }) => r.id)).toEqual(all.body.slice(4, 8).map((r: { id: string }) => r.id));
      const last = await lister.request('GET', '/api/admin/exchange-requests?page=3&pageSize=4', { token: boss.token });
      expect(last.body).toHaveLength(1);
      const refused = [];
      for (const query of ['tab=4', 'tab=-1', 'tab=x', 'pageSize=500', 'status=received']) {
        const res = await lister.request('GET', `/api/admin/exchange-requests?${query}`, { token: boss.token });
        refused.push([query, res.status, res.body]);
      }
      const TAB = { error: 'tab must be 0, 1, 2 or 3' };
      expect(refused).toEqual([
        ['tab=4', 400, TAB],
        ['tab=-1', 400, TAB],
        ['tab=x', 400, TAB],
        ['pageSize=500', 400, { error: 'pageSize must be a whole number from 1 to 100' }],
        ['status=received', 400, { error: 'status must be one of pending, approved, declined, completed' }],
      ]);
    });
    test('paged totals (kept by triggers) always equal the rows each filter really holds', async () => {
      // changes the data, so it works on a database of its own: the other tests here count exact rows
      const own = await createTestApp(kind);
      const ownBoss = await signInPerson(own, 'boss@swappoints.example', { admin: true });
      const ownPeople = [await signInPerson(own, 'meera.iyer@example.com'), await signInPerson(own, 'kiran.patel@example.com')];
      const ownWarehouse = (await createWarehouse(own, ownBoss)).id;
      for (const [i, stage] of (['pending', 'approved', 'shipped', 'received', 'credited', 'declined'] as Stage[]).entries()) {
        await requestAt(own, stage, ownPeople[i % 2]!, ownBoss, ownWarehouse);
      }
      await createRequest(own, ownPeople[1]!, { productName: 'Maintenance Kit', brand: 'Kyocera' });
      const lister = own;
      const boss = ownBoss;
      const people = ownPeople;
      const listerWarehouse = ownWarehouse;
      const check = async () => {
        for (const filter of ['', 'tab=0', 'tab=1', 'tab=2', 'tab=3', 'status=pending', 'status=approved', 'status=declined', 'status=completed', 'tab=3&status=approved', 'q=kyocera']) {
          const all = await lister.request('GET', `/api/admin/exchange-requests?${filter}`, { token: boss.token });
          const paged = await lister.request('GET', `/api/admin/exchange-requests?${filter}${filter ? '&' : ''}page=1&pageSize=1`, { token: boss.token });
          expect(Number(paged.headers.get('x-total-count')), filter).toBe(all.body.length);
        }
        const counts = (await lister.request('GET', '/api/admin/exchange-requests/counts', { token: boss.token })).body;
        const lengths = await Promise.all([0, 1, 2, 3].map(async (tab) => (await lister.request('GET', `/api/admin/exchange-requests?tab=${tab}`, { token: boss.token })).body.length));
        expect([counts.pending, counts.awaitingShipping, counts.inTransit, counts.received]).toEqual(lengths);
      };
      await check();
      // every kind of change moves them: create, cancel, decide, ship, receive, complete, delete
      const cancelled = await createRequest(lister, people[0]!);
      expect((await lister.request('DELETE', `/api/exchange/${cancelled}`, { token: people[0]!.token })).status).toBe(200);
      const done = await requestAt(lister, 'completed', people[1]!, boss, listerWarehouse);
      const dropped = await requestAt(lister, 'shipped', people[0]!, boss, listerWarehouse);
      expect((await lister.request('DELETE', `/api/admin/exchange-requests/${dropped}`, { token: boss.token })).status).toBe(200);
      await check();
      const completed = await lister.request('GET', '/api/admin/exchange-requests?status=completed', { token: boss.token });
      expect(completed.body.map((r: { id: string }) => r.id)).toContain(done);
      const gone = await lister.request('GET', `/api/admin/exchange-requests/${dropped}`, { token: boss.token });
      expect([gone.status, gone.body]).toEqual([404, { error: 'Exchange request not found' }]);
      await own.close();
    });
  });

  describe('GET /api/admin/exchange-requests/{id}', () => {
    test('the detail adds the customer, their balance and the whole timeline with admin emails', async () => {
      const id = await requestAt(t, 'credited', customer, admin, warehouseId, 750);
      const res = await t.request('GET', `/api/admin/exchange-requests/${id}`, { token: admin.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id,
        userEmail: customer.email,
        customerName: 'Asha Rao',
        customerEmail: customer.email,
        creditAmount: 750,
        currency: 'INR',
      });
      expect(res.body.totalLoyaltyPoints).toBe(res.body.totalShopifyCredit);
      expect(res.body.totalLoyaltyPoints).toBeGreaterThanOrEqual(750);
      expect(res.body.events.map((e: { type: string }) => e.type)).toEqual(['created', 'approved', 'shipped', 'received', 'credited']);
      expect(res.body.events[1]).toMatchObject({ actorEmail: admin.email, actorRole: 'admin' });
      expect(res.body.events[4].note).toBe('₹750.00 store credit assigned');
    });

    test("a customer without a name is 'Unknown'; a missing or malformed id is 404 'Exchange request not found'", async () => {
      const nameless = await signInPerson(t);
      const id = await createRequest(t, nameless);
      expect((await t.request('GET', `/api/admin/exchange-requests/${id}`, { token: admin.token })).body.customerName).toBe('Unknown');
      for (const bad of [crypto.randomUUID(), 'nope', '123']) {
        const res = await t.request('GET', `/api/admin/exchange-requests/${bad}`, { token: admin.token });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: NOT_FOUND });
      }
    });
  });

  describe('PUT …/{id}/status', () => {
    test("approving needs a warehouse: 'Please select a warehouse for shipping the product'", async () => {
      const id = await createRequest(t, customer);
      for (const body of [{ status: 'approved' }, { status: 'approved', warehouseId: '' }, { status: 'approved', warehouseId: null }]) {
        const res = await setStatus(id, body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'Please select a warehouse for shipping the product' });
      }
      const inactive = await createWarehouse(t, admin, { isActive: false });
      for (const warehouse of [crypto.randomUUID(), 'not-an-id', inactive.id]) {
        const res = await setStatus(id, { status: 'approved', warehouseId: warehouse });
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('The selected warehouse does not exist or is not active. Please select an active warehouse.');
      }
      expect((await t.request('GET', `/api/admin/exchange-requests/${id}`, { token: admin.token })).body.status).toBe('pending');
    });

    test('approving stores the snapshot, the feedback, an event and mails the ship-to address', async () => {
      const id = await createRequest(t, customer, { productName: 'Brother DR-2400 Drum' });
      const res = await setStatus(id, { status: 'approved', warehouseId, adminFeedback: ' Please pack it well ' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'approved', warehouseId, adminFeedback: 'Please pack it well' });
      expect(res.body.warehouseInfo).toMatchObject({ id: warehouseId, name: 'Delhi NCR Warehouse', city: 'Gurugram' });
      expect((await eventsOf(id)).at(-1)).toMatchObject({ type: 'approved', fromStatus: 'pending', toStatus: 'approved', note: 'Please pack it well' });
      const [mail] = (await mailsTo(t, customer.email, 'request_approved')).filter((m) => m.link?.endsWith(`/exchange/${id}`));
      expect(mail!.subject).toBe('Your exchange request for Brother DR-2400 Drum is approved');
      expect(mail!.text_body).toContain('Delhi NCR Warehouse\nPlot 18, Peenya Industrial Area\nPhase 2\nGurugram, Haryana 560058\nIndia');
      expect(mail!.text_body).toContain('Please pack it well');
    });

    test('declining keeps the feedback and mails it', async () => {
      const id = await createRequest(t, customer);
      const res = await setStatus(id, { status: 'declined', adminFeedback: 'We do not accept opened ink.' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'declined', adminFeedback: 'We do not accept opened ink.', warehouseInfo: null });
      const mails = (await mailsTo(t, customer.email, 'request_declined')).filter((m) => m.link?.endsWith(`/exchange/${id}`));
      expect(mails).toHaveLength(1);
      expect(mails[0]!.text_body).toContain('We do not accept opened ink.');
    });

    test("the feedback takes 10000 characters: 'Admin Feedback can be at most 10000 characters.' (the dialog's label and hint)", async () => {
      const id = await createRequest(t, customer);
      const res = await setStatus(id, { status: 'declined', adminFeedback: 'x'.repeat(10_001) });
      expect([res.status, res.body]).toEqual([400, { error: 'Admin Feedback can be at most 10000 characters.' }]);
      expect((await t.request('GET', `/api/admin/exchange-requests/${id}`, { token: admin.token })).body.status).toBe('pending');
      const atLimit = await setStatus(id, { status: 'declined', adminFeedback: ` ${'x'.repeat(10_000)} ` });
      expect([atLimit.status, atLimit.body.adminFeedback.length]).toEqual([200, 10_000]);
    });

    test('the same status again is a 200 no-op: no event, no mail', async () => {
      const id = await requestAt(t, 'declined', customer, admin, warehouseId);
      const before = { events: (await eventsOf(id)).length, mails: (await mailsTo(t, customer.email)).length };
      const res = await setStatus(id, { status: 'declined', adminFeedback: 'changed my mind' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id, status: 'declined', adminFeedback: 'Not a printer part' });
      expect((await eventsOf(id)).length).toBe(before.events);
      expect((await mailsTo(t, customer.email)).length).toBe(before.mails);
    });

    test('any other transition is 409 with a clear error', async () => {
      const cases: [Stage, string, string][] = [
        ['declined', 'approved', 'This request was declined; its status can no longer change.'],
        ['approved', 'declined', 'This request is already approved; it can no longer be declined.'],
        ['approved', 'pending', 'A request that has been decided cannot go back to pending.'],
        ['pending', 'completed', 'Only an approved request can be completed.'],
        ['completed', 'approved', 'This exchange is completed; its status can no longer change.'],
      ];
      for (const [stage, status, error] of cases) {
        const id = await requestAt(t, stage, customer, admin, warehouseId);
        const res = await setStatus(id, { status, warehouseId });
        expect(res.status).toBe(409);
        expect(res.body).toEqual({ error });
      }
      const id = await createRequest(t, customer);
      for (const status of ['shipped', '', 'APPROVED', undefined]) {
        const res = await setStatus(id, { status });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'Please choose a valid status: pending, approved, declined, completed' });
      }
    });

    test("completing needs credit: 'You must assign credit before completing the exchange'; then it completes and mails", async () => {
      for (const stage of ['approved', 'shipped', 'received'] as const) {
        const id = await requestAt(t, stage, customer, admin, warehouseId);
        const res = await setStatus(id, { status: 'completed' });
        expect(res.status).toBe(409);
        expect(res.body).toEqual({ error: 'You must assign credit before completing the exchange' });
      }
      const id = await requestAt(t, 'credited', customer, admin, warehouseId, 320);
      const res = await setStatus(id, { status: 'completed' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'completed', creditAmount: 320 });
      const mails = (await mailsTo(t, customer.email, 'exchange_completed')).filter((m) => m.link?.endsWith(`/exchange/${id}`));
      expect(mails).toHaveLength(1);
      expect(mails[0]!.text_body).toContain('₹320.00');
    });
  });

  describe('PUT …/{id}/transit', () => {
    const receive = (id: string, body: Record<string, unknown> = { transitStatus: 'received' }) =>
      t.request('PUT', `/api/admin/exchange-requests/${id}/transit`, { token: admin.token, body });

    test('a shipped item is marked received once, with the note in the timeline and a mail to the customer', async () => {
      const id = await requestAt(t, 'shipped', customer, admin, warehouseId);
      const res = await receive(id, { transitStatus: 'received', adminNote: 'Box dented, part fine' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'approved', transitStatus: 'received' });
      expect((await eventsOf(id)).at(-1)).toMatchObject({ type: 'received', fromStatus: 'shipped', toStatus: 'received', note: 'Box dented, part fine' });
      expect((await mailsTo(t, customer.email, 'item_received')).filter((m) => m.link?.endsWith(`/exchange/${id}`))).toHaveLength(1);
      const again = await receive(id);
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ error: 'This item has already been marked as received.' });
    });

    test("the note takes 10000 characters: 'Notes can be at most 10000 characters.' (the dialog's label and hint)", async () => {
      const id = await requestAt(t, 'shipped', customer, admin, warehouseId);
      const res = await receive(id, { transitStatus: 'received', adminNote: 'x'.repeat(10_001) });
      expect([res.status, res.body]).toEqual([400, { error: 'Notes can be at most 10000 characters.' }]);
      expect((await t.request('GET', `/api/admin/exchange-requests/${id}`, { token: admin.token })).body.transitStatus).toBe('shipped');
      const atLimit = await receive(id, { transitStatus: 'received', adminNote: 'x'.repeat(10_000) });
      expect([atLimit.status, atLimit.body.transitStatus]).toEqual([200, 'received']);
    });

    test('only after shipping details exist (409); only the value received (400)', async () => {
      const approved = await requestAt(t, 'approved', customer, admin, warehouseId);
      const res = await receive(approved);
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('The customer has not submitted shipping details yet, so the item cannot be marked as received.');
      const pending = await createRequest(t, customer);
      const early = await receive(pending);
      expect([early.status, early.body]).toEqual([409, { error: 'Only an approved request can be marked as received.' }]);
      const shipped = await requestAt(t, 'shipped', customer, admin, warehouseId);
      for (const transitStatus of ['shipped', 'ready', '', undefined]) {
        const bad = await receive(shipped, { transitStatus });
        expect(bad.status).toBe(400);
        expect(bad.body).toEqual({ error: "transitStatus must be 'received'" });
      }
    });
  });

  describe('PUT …/{id}/credit', () => {
    const credit = (id: string, body: Record<string, unknown>) => t.request('PUT', `/api/admin/exchange-requests/${id}/credit`, { token: admin.token, body });

    test("a number of at least 0 is required: 'Please enter a valid credit amount' (0 itself is accepted: see spec-departures)", async () => {
      const id = await requestAt(t, 'received', customer, admin, warehouseId);
      for (const creditAmount of [-1, -0.6, 'abc', '', ' ', null, undefined, '1e3', '-0', 10_000_001, true, [5]]) {
        const res = await credit(id, { creditAmount });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'Please enter a valid credit amount' });
      }
      expect(await t.ctx.db.selectFrom('credit_ledger').select('id').where('exchange_request_id', '=', id).execute()).toHaveLength(0);
    });

    test('the amount is rounded to a whole number; one ledger row, pushed, an event and a mail', async () => {
      const id = await requestAt(t, 'received', customer, admin, warehouseId);
      const res = await credit(id, { creditAmount: 499.5, additionalFeedback: 'Cartridge was full' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id, creditAmount: 500, loyaltyPointsSuccess: true, status: 'approved' });
      const ledger = await t.ctx.db.selectFrom('credit_ledger').selectAll().where('exchange_request_id', '=', id).execute();
      expect(ledger).toHaveLength(1);
      expect(ledger[0]).toMatchObject({ amount: '500.00', currency: 'INR', push_status: 'success', push_attempts: 1, note: 'Cartridge was full', created_by: admin.id });
      expect((await eventsOf(id)).at(-1)).toMatchObject({ type: 'credited', note: '₹500.00 store credit assigned. Cartridge was full' });
      const mails = (await mailsTo(t, customer.email, 'credit_assigned')).filter((m) => m.link?.endsWith(`/exchange/${id}`));
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toContain('₹500.00');
      const numeric = await requestAt(t, 'received', customer, admin, warehouseId);
      expect((await credit(numeric, { creditAmount: '250' })).body.creditAmount).toBe(250);
    });

    test('only when received and not yet credited (409)', async () => {
      for (const stage of ['pending', 'approved', 'shipped', 'declined'] as const) {
        const id = await requestAt(t, stage, customer, admin, warehouseId);
        const res = await credit(id, { creditAmount: 100 });
        expect(res.status).toBe(409);
        expect(res.body).toEqual({ error: 'Credit can only be assigned once the item has been received.' });
      }
      const id = await requestAt(t, 'credited', customer, admin, warehouseId, 100);
      const again = await credit(id, { creditAmount: 900 });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ error: 'Credit has already been assigned to this request.' });
      const rows = await t.ctx.db.selectFrom('credit_ledger').select('amount').where('exchange_request_id', '=', id).execute();
      expect(rows).toEqual([{ amount: '100.00' }]);
    });
  });

  describe('DELETE …/{id}', () => {
    test('any state; images and the request go, the ledger row and the timeline stay', async () => {
      for (const stage of ['pending', 'approved', 'declined', 'completed'] as const) {
        const id = await requestAt(t, stage, customer, admin, warehouseId, 200);
        const res = await t.request('DELETE', `/api/admin/exchange-requests/${id}`, { token: admin.token });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ success: true, id });
        expect((await t.request('GET', `/api/admin/exchange-requests/${id}`, { token: admin.token })).status).toBe(404);
        expect(await t.ctx.db.selectFrom('request_images').select('id').where('request_id', '=', id).execute()).toHaveLength(0);
        const events = await t.ctx.db.selectFrom('request_events').select(['type', 'actor_email', 'from_status']).where('request_id', '=', id).orderBy('id').execute();
        expect(events.at(-1)).toEqual({ type: 'deleted', actor_email: admin.email, from_status: stage });
        const ledger = await t.ctx.db.selectFrom('credit_ledger').select('amount').where('exchange_request_id', '=', id).execute();
        expect(ledger).toEqual(stage === 'completed' ? [{ amount: '200.00' }] : []);
      }
      const history = await t.request('GET', '/api/admin/credit-history', { token: admin.token });
      expect(history.status).toBe(200);
    });

    test("a missing or malformed id is 404 'Exchange request not found' on every admin request endpoint", async () => {
      for (const id of [crypto.randomUUID(), 'x']) {
        for (const [method, suffix, body] of [
          ['DELETE', '', undefined],
          ['PUT', '/status', { status: 'declined' }],
          ['PUT', '/transit', { transitStatus: 'received' }],
          ['PUT', '/credit', { creditAmount: 5 }],
        ] as const) {
          const res = await t.request(method, `/api/admin/exchange-requests/${id}${suffix}`, { token: admin.token, body });
          expect(res.status).toBe(404);
          expect(res.body).toEqual({ error: NOT_FOUND });
        }
      }
    });
  });

  describe('GET /api/docs', () => {
    test('the OpenAPI document covers every exchange call with its response schema and tag', async () => {
      const res = await t.app.handle(new Request('http://localhost/api/docs/json'));
      expect(res.status).toBe(200);
      const doc = (await res.json()) as { paths: Record<string, Record<string, { tags?: string[]; responses?: Record<string, { content?: unknown }> }>> };
      const calls: [string, string][] = [
        ['/api/exchange', 'get'], ['/api/exchange', 'post'], ['/api/exchange/{id}', 'get'], ['/api/exchange/{id}', 'delete'],
        ['/api/exchange/{id}/shipping', 'post'], ['/api/admin/exchange-requests', 'get'], ['/api/admin/exchange-requests/counts', 'get'],
        ['/api/admin/exchange-requests/{id}', 'get'], ['/api/admin/exchange-requests/{id}', 'delete'],
        ['/api/admin/exchange-requests/{id}/status', 'put'], ['/api/admin/exchange-requests/{id}/transit', 'put'],
        ['/api/admin/exchange-requests/{id}/credit', 'put'], ['/api/admin/credit-history', 'get'],
        ['/api/admin/credit-history/{id}/retry', 'post'], ['/api/admin/warehouses', 'get'], ['/api/admin/warehouses', 'post'],
        ['/api/admin/warehouses/{id}', 'put'], ['/api/admin/warehouses/{id}', 'delete'],
      ];
      for (const [path, method] of calls) {
        const op = doc.paths[path]?.[method];
        expect(op, `${method} ${path}`).toBeDefined();
        expect(op!.tags?.length, `${method} ${path} tags`).toBeGreaterThan(0);
        const ok = op!.responses?.['200'] ?? op!.responses?.['201'];
        expect(ok?.content, `${method} ${path} response schema`).toBeDefined();
      }
    });
  });
});
