import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sql } from 'kysely';
import { tooManyOpenMessage, tooManyTodayMessage } from '#api/modules/requests/caps.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { createWarehouse, signInPerson, uploadedImage, validRequest, type Person } from '#tests/helpers/fixtures.ts';

setDefaultTimeout(60_000);

describe.each(databaseKinds())('caps on new exchange requests (%s)', (kind) => {
  let t: TestApp;
  let admin: Person;
  beforeAll(async () => {
    t = await createTestApp(kind, { MAX_OPEN_REQUESTS_PER_CUSTOMER: '3', MAX_NEW_REQUESTS_PER_DAY: '4' });
    admin = await signInPerson(t, 'admin.user@swappoints.example', { admin: true });
  });
  afterAll(() => t.close());

  const file = async (who: Person) => t.request('POST', '/api/exchange', { token: who.token, body: validRequest([await uploadedImage(t, who.id)]) });
  const countOf = async (who: Person) => (await t.ctx.db.selectFrom('exchange_requests').select('id').where('user_id', '=', who.id).execute()).length;

  test('MAX_OPEN_REQUESTS_PER_CUSTOMER open requests: the next is 429 with a clear message; a decided one frees a place', async () => {
    const customer = await signInPerson(t);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await file(customer);
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const refused = await file(customer);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: tooManyOpenMessage(3) });
    expect(refused.body.error).toBe('You already have 3 open exchange requests. Please wait until one of them is decided or completed before filing another.');
    expect(await countOf(customer)).toBe(3);
    // admins were mailed three times, not four
    const adminMails = await t.ctx.db.selectFrom('mail_outbox').select('id').where('kind', '=', 'admin_new_request').where('text_body', 'like', `%${customer.email}%`).execute();
    expect(adminMails).toHaveLength(3);

    const declined = await t.request('PUT', `/api/admin/exchange-requests/${ids[0]}/status`, { token: admin.token, body: { status: 'declined', adminFeedback: 'Not a printer part' } });
    expect(declined.status).toBe(200);
    expect((await file(customer)).status).toBe(201);
  });

  test('MAX_NEW_REQUESTS_PER_DAY in 24 hours: the next is 429 saying to try tomorrow; older ones do not count', async () => {
    const customer = await signInPerson(t);
    for (let i = 0; i < 3; i++) expect((await file(customer)).status).toBe(201);
    // decide them, so only the daily cap is in the way
    await t.ctx.db.updateTable('exchange_requests').set({ status: 'declined' }).where('user_id', '=', customer.id).execute();
    expect((await file(customer)).status).toBe(201);
    await t.ctx.db.updateTable('exchange_requests').set({ status: 'declined' }).where('user_id', '=', customer.id).execute();
    const refused = await file(customer);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: tooManyTodayMessage(4) });
    expect(refused.body.error).toBe('You have filed 4 exchange requests in the last 24 hours, the most allowed in a day. Please try again tomorrow.');
    // a day later the first ones no longer count
    await sql`update exchange_requests set created_at = now() - interval '25 hours' where user_id = ${customer.id}`.execute(t.ctx.db);
    expect((await file(customer)).status).toBe(201);
  });

  test('requests filed at the same moment are counted one after the other: never more than the cap', async () => {
    const customer = await signInPerson(t);
    const images = await Promise.all(Array.from({ length: 8 }, () => uploadedImage(t, customer.id)));
    const results = await Promise.all(images.map((image) => t.request('POST', '/api/exchange', { token: customer.token, body: validRequest([image]) })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 429)).toHaveLength(5);
    expect(await countOf(customer)).toBe(3);
  });

  test('the settings are checked at start', async () => {
    const { loadSettings } = await import('#api/settings.ts');
    const base = { JWT_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/sp-caps-settings' };
    expect(loadSettings(base)).toMatchObject({ maxOpenRequestsPerCustomer: 20, maxNewRequestsPerDay: 10 });
    expect(() => loadSettings({ ...base, MAX_OPEN_REQUESTS_PER_CUSTOMER: '0' })).toThrow(/MAX_OPEN_REQUESTS_PER_CUSTOMER/);
    expect(() => loadSettings({ ...base, MAX_NEW_REQUESTS_PER_DAY: 'lots' })).toThrow(/MAX_NEW_REQUESTS_PER_DAY/);
  });
});
