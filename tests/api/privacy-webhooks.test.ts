import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { createHmac, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { listJobs } from '#api/jobs/list.ts';
import { addCustomer } from '#api/modules/customers/service.ts';
import { runDuePrivacyJobs } from '#api/modules/privacy/jobs.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { createRequest, signInPerson, uniqueEmail, type Person } from '#tests/helpers/fixtures.ts';

setDefaultTimeout(60_000);

const SECRET = 'shpss_compliance_test_secret_0123456789';
const SHOP = 'printer-parts.myshopify.com';

/**
 * Issue 25, point 5: Shopify's compliance webhooks, signed as Shopify signs them (base64
 * HMAC-SHA256 of the raw body under the app's client secret), recorded once per webhook id, worked
 * off by the job loop.
 */
describe.each(databaseKinds())('privacy: Shopify compliance webhooks (%s)', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(kind, { SHOPIFY_CLIENT_ID: 'client-id-test', SHOPIFY_CLIENT_SECRET: SECRET, SHOPIFY_STORE: SHOP });
  });
  afterAll(() => t.close());

  const sign = (body: string, secret = SECRET) => createHmac('sha256', secret).update(body).digest('base64');
  const send = (topic: string, payload: unknown, options: { id?: string; hmac?: string | null; headerTopic?: string; raw?: string } = {}) => {
    const body = options.raw ?? JSON.stringify(payload);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-shopify-topic': options.headerTopic ?? topic,
      'x-shopify-shop-domain': SHOP,
      'x-shopify-webhook-id': options.id ?? randomUUID(),
      'x-shopify-api-version': '2026-10',
    };
    if (options.hmac !== null) headers['x-shopify-hmac-sha256'] = options.hmac ?? sign(body);
    return t.request('POST', `/api/shopify/webhooks/${topic}`, { body, headers });
  };
  const jobCount = async () => Number((await t.ctx.db.selectFrom('privacy_jobs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const customerWithData = async (shopId: number) => {
    const email = uniqueEmail('shopify');
    await addCustomer(t.ctx.db, { email, name: 'Ravi Compliance', shopCustomerId: String(shopId) });
    const person = await signInPerson(t, email);
    await createRequest(t, person);
    return person;
  };
  const redactPayload = (p: Person, id: number) => ({ shop_id: 954889, shop_domain: SHOP, customer: { id, email: p.email, phone: '+91 98450 12345' }, orders_to_redact: [299938] });

  test('a forged, unsigned or re-signed-with-another-secret webhook is 401 and nothing is recorded', async () => {
    const victim = await customerWithData(101);
    const before = await jobCount();
    const payload = redactPayload(victim, 101);
    expect((await send('customers/redact', payload, { hmac: null })).status).toBe(401);
    expect((await send('customers/redact', payload, { hmac: sign(JSON.stringify(payload), 'another-secret') })).status).toBe(401);
    expect((await send('customers/redact', payload, { hmac: 'not base64 at all!' })).status).toBe(401);
    // signed over one body, sent with another (the raw body is what is signed, not its parse)
    const signedFor = JSON.stringify(payload);
    const res = await send('customers/redact', payload, { raw: JSON.stringify(payload, null, 1), hmac: sign(signedFor) });
    expect(res.status).toBe(401);
    expect(res.body.error).toContain('X-Shopify-Hmac-Sha256');
    expect(await jobCount()).toBe(before);
    expect((await t.request('GET', '/api/exchange', { token: victim.token })).status).toBe(200);
  });

  test('a signed body that is not the topic\'s JSON, or a topic header for another address, is 400 and nothing is recorded', async () => {
    const before = await jobCount();
    expect((await send('shop/redact', null, { raw: '{"shop_id": ' })).status).toBe(400);
    expect((await send('shop/redact', { shop_domain: SHOP })).status).toBe(400);
    expect((await send('shop/redact', { shop_id: 1, shop_domain: SHOP }, { headerTopic: 'customers/redact' })).status).toBe(400);
    expect(await jobCount()).toBe(before);
  });

  test('customers/redact answers at once, erases in the job loop, and a replay with the same webhook id does the work once', async () => {
    const customer = await customerWithData(202);
    const id = randomUUID();
    const first = await send('customers/redact', redactPayload(customer, 202), { id });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ accepted: true, duplicate: false });
    expect((await t.request('GET', '/api/exchange', { token: customer.token })).status).toBe(200); // not yet: the loop does it
    const replay = await send('customers/redact', redactPayload(customer, 202), { id });
    expect(replay.body).toEqual({ accepted: true, duplicate: true });
    expect(await t.ctx.db.selectFrom('privacy_jobs').select('id').where('webhook_id', '=', id).execute()).toHaveLength(1);

    await runDuePrivacyJobs(t.ctx);
    expect((await t.request('GET', '/api/exchange', { token: customer.token })).status).toBe(401);
    expect(await t.ctx.db.selectFrom('users').select('id').where('email', '=', customer.email).execute()).toEqual([]);
    const job = await t.ctx.db.selectFrom('privacy_jobs').selectAll().where('webhook_id', '=', id).executeTakeFirstOrThrow();
    expect(job.status).toBe('done');
    expect(job.result).toMatch(/^Shopify customer 202 erased as erased-[0-9a-f]{10}$/);
    // the recorded webhook keeps no email or phone once done
    expect(JSON.stringify(job.payload)).not.toContain(customer.email);
    expect(JSON.stringify(job.payload)).not.toContain('98450');
  });

  test('the signature is checked over the raw bytes sent: a body laid out differently from JSON.stringify, signed as sent, is accepted', async () => {
    const raw = `{\n  "shop_domain" : "${SHOP}",\n  "shop_id" : 1,\n  "extra" : "\u00e9"\n}`;
    const res = await send('shop/redact', null, { raw, hmac: sign(raw), id: randomUUID() });
    expect(res.status).toBe(200);
    expect(res.body.duplicate).toBe(false);
    await t.ctx.db.deleteFrom('privacy_jobs').where('kind', '=', 'shop/redact').where('status', '=', 'pending').execute();
  });

  test('without SHOPIFY_CLIENT_SECRET nothing can be verified: every compliance webhook is 401', async () => {
    const bare = await createTestApp(kind);
    try {
      const body = JSON.stringify({ shop_id: 1, shop_domain: SHOP });
      const res = await bare.request('POST', '/api/shopify/webhooks/shop/redact', {
        body,
        headers: { 'content-type': 'application/json', 'x-shopify-hmac-sha256': sign(body, ''), 'x-shopify-webhook-id': randomUUID() },
      });
      expect(res.status).toBe(401);
      expect(await bare.ctx.db.selectFrom('privacy_jobs').select('id').execute()).toEqual([]);
    } finally {
      await bare.close();
    }
  });

  test('customers/data_request writes the export under DATA_DIR/exports for the shop owner, listed by jobs list', async () => {
    const customer = await customerWithData(303);
    const res = await send('customers/data_request', { shop_id: 954889, shop_domain: SHOP, orders_requested: [], customer: { id: 303, email: customer.email, phone: null }, data_request: { id: 9999 } });
    expect(res.status).toBe(200);
    await runDuePrivacyJobs(t.ctx);
    const [job] = await listJobs(t.ctx.db, { kind: 'privacy', limit: 1 });
    expect(job).toMatchObject({ kind: 'privacy', state: 'done' });
    const path = /export for the shop owner: (.+\.zip)$/.exec(job!.result ?? '')?.[1];
    expect(path).toStartWith(`${t.ctx.settings.dataDir}/exports/shopify-data-request-9999-customer-303`);
    expect(existsSync(path!)).toBe(true);
    expect(statSync(path!).mode & 0o077).toBe(0);
    const data = JSON.parse(strFromU8(unzipSync(new Uint8Array(readFileSync(path!)))['swappoints-data.json']!));
    expect(data.email).toBe(customer.email);
    expect(data.exchange_requests).toHaveLength(1);
  });

  test('shop/redact for this shop erases every customer; for another shop it erases nobody', async () => {
    const a = await customerWithData(404);
    const b = await customerWithData(405);
    expect((await send('shop/redact', { shop_id: 1, shop_domain: 'someone-else.myshopify.com' })).status).toBe(200);
    await runDuePrivacyJobs(t.ctx);
    expect((await t.request('GET', '/api/exchange', { token: a.token })).status).toBe(200);

    expect((await send('shop/redact', { shop_id: 954889, shop_domain: SHOP })).status).toBe(200);
    await runDuePrivacyJobs(t.ctx);
    for (const p of [a, b]) expect(await t.ctx.db.selectFrom('users').select('id').where('email', '=', p.email).execute()).toEqual([]);
    const remaining = await t.ctx.db.selectFrom('users').select('email').where('is_admin', '=', false).where('email', 'not like', 'erased-%').execute();
    expect(remaining).toEqual([]);
  });
});
