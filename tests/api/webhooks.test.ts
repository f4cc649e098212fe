import { afterAll, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { hostname } from 'node:os';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import type { Resolve } from '#api/modules/webhooks/destination.ts';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { deliverDueWebhooks } from '#api/modules/webhooks/delivery.ts';
import { emitRequestEvent } from '#api/modules/requests/webhook.ts';
import { WEBHOOK_EVENT_TYPES } from '#api/modules/webhooks/rules.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { SHOPIFY_TOKEN } from '#tests/helpers/fake-shopify-backend.ts';
import { startFakeShopify, type FakeShopify } from '#tests/helpers/fake-shopify.ts';
import { createRequest, createWarehouse, mailsTo, requestAt, signInPerson, uniqueEmail, type Person } from '#tests/helpers/fixtures.ts';
import { deliveryChecker } from '#tests/helpers/openapi-validate.ts';
import { startWebhookReceiver, type WebhookReceiver } from '#tests/helpers/webhook-receiver.ts';

// a database of its own per suite takes seconds on a loaded machine
setDefaultTimeout(60_000);

/** A stand-in for the DNS: answers the first question with `first` and every later one with `later`, and counts the questions. */
function changingResolver(first: string[], later: string[]): Resolve & { calls: string[] } {
  const calls: string[] = [];
  return Object.assign(async (host: string) => (calls.push(host) === 1 ? first : later).map((address) => ({ address })), { calls });
}

const CARRY_PRIVATE_IPV4 = ['2002:a00:1::1', '64:ff9b::a9fe:a9fe', '64:ff9b:1::cb00:710a', '::ffff:7f00:1', '2001:0:cb00:7101::f5ff:fffe']; // 6to4, NAT64 (both), mapped, Teredo

const verified = (secret: string, hook: { headers: Record<string, string>; body: string }) => new Webhook(secret).verify(hook.body, hook.headers) as any;

describe.each(databaseKinds())('signed webhooks (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeShopify;
  let receiver: WebhookReceiver;
  let admin: Person;
  let warehouseId: string;
  const shopper = async () => {
    const email = uniqueEmail('hooks');
    fake.addCustomer(email);
    return signInPerson(t, email);
  };
  const addEndpoint = async (events: readonly string[] = WEBHOOK_EVENT_TYPES, url = `${receiver.url}/hooks`) => {
    const res = await t.request('POST', '/api/admin/webhooks', { token: admin.token, body: { url, events } });
    expect(res.status).toBe(201);
    return res.body as { id: string; secret: string; url: string; events: string[] };
  };
  const deliveriesOf = (endpointId: string) => t.ctx.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).orderBy('id').execute();

  beforeAll(async () => {
    fake = await startFakeShopify({ token: SHOPIFY_TOKEN });
    t = await createTestApp(kind, { SHOP_BACKEND: 'shopify', SHOPIFY_ADMIN_URL: fake.url, SHOPIFY_ADMIN_TOKEN: SHOPIFY_TOKEN, SHOPIFY_TIMEOUT_MS: '2000', WEBHOOK_ALLOW_PRIVATE: 'true' });
    const adminEmail = uniqueEmail('admin');
    fake.addCustomer(adminEmail);
    admin = await signInPerson(t, adminEmail, { admin: true });
    warehouseId = (await createWarehouse(t, admin)).id;
  });
  afterAll(async () => {
    await t.close();
    fake.close();
  });
  beforeEach(async () => {
    receiver?.close();
    receiver = startWebhookReceiver();
    await t.ctx.db.deleteFrom('webhook_endpoints').execute();
  });

  test('the secret is whsec_ + base64 of 32 bytes, shown when the endpoint is made and never listed', async () => {
    const endpoint = await addEndpoint(['request.created']);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(endpoint.secret.slice(6), 'base64')).toHaveLength(32);
    const list = await t.request('GET', '/api/admin/webhooks', { token: admin.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([expect.objectContaining({ id: endpoint.id, url: `${receiver.url}/hooks`, events: ['request.created'], enabled: true })]);
    expect(JSON.stringify(list.body)).not.toContain(endpoint.secret.slice(6));
    const customer = await shopper();
    expect((await t.request('GET', '/api/admin/webhooks', { token: customer.token })).status).toBe(403);
    expect((await t.request('POST', '/api/admin/webhooks', { token: admin.token, body: { url: `${receiver.url}/x`, events: ['request.nope'] } })).status).toBe(400);
    expect((await t.request('POST', '/api/admin/webhooks', { token: admin.token, body: { url: `${receiver.url}/x`, events: [] } })).status).toBe(400);
  });

  test('each of the 11 event types is delivered once, signed so a Standard Webhooks verifier accepts it, with the record as admins see it, as the OpenAPI document describes it under webhooks', async () => {
    const endpoint = await addEndpoint();
    const customer = await shopper();
    const credited = await requestAt(t, 'completed', customer, admin, warehouseId, 250); // created … completed, credit.pushed
    const declined = await requestAt(t, 'declined', customer, admin, warehouseId);
    const cancelled = await createRequest(t, customer);
    expect((await t.request('DELETE', `/api/exchange/${cancelled}`, { token: customer.token })).status).toBe(200);
    const deleted = await createRequest(t, customer);
    expect((await t.request('DELETE', `/api/admin/exchange-requests/${deleted}`, { token: admin.token })).status).toBe(200);
    const failing = await requestAt(t, 'received', customer, admin, warehouseId);
    fake.inject({ kind: 'http500', apply: false }, 'SwapPointsCredit');
    const failed = await t.request('PUT', `/api/admin/exchange-requests/${failing}/credit`, { token: admin.token, body: { creditAmount: 90 } });
    expect(failed.body.loyaltyPointsSuccess).toBe(false);

    const report = await deliverDueWebhooks(t.ctx, { limit: 100 });
    expect(report.failed).toBe(0);
    const documented = deliveryChecker((await t.request('GET', '/api/docs/json')).body);
    const payloads = receiver.received.map((hook) => {
      expect(hook.path).toBe('/hooks');
      expect(documented(hook.headers, hook.body)).toBeUndefined();
      const payload = verified(endpoint.secret, hook);
      expect(hook.headers['webhook-id']).toBe(payload.id);
      expect(Number(hook.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -2);
      expect(Object.keys(payload).sort()).toEqual(['createdAt', 'data', 'id', 'type']);
      return payload;
    });
    const types = payloads.map((p) => p.type);
    expect([...new Set(types)].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    const ofRequest = (type: string, id: string) => payloads.filter((p) => p.type === type && p.data.id === id);
    for (const type of ['request.created', 'request.approved', 'request.shipped', 'request.received', 'request.credited', 'request.completed']) {
      expect(ofRequest(type, credited), type).toHaveLength(1);
    }
    expect(ofRequest('request.declined', declined)).toHaveLength(1);
    expect(ofRequest('request.cancelled', cancelled)).toHaveLength(1);
    expect(ofRequest('request.deleted', deleted)).toHaveLength(1);
    expect(new Set(payloads.map((p) => p.id)).size).toBe(payloads.length);

    const approved = ofRequest('request.approved', credited)[0].data;
    expect(approved).toMatchObject({ status: 'approved', userEmail: customer.email, warehouseId, creditAmount: 0, productName: 'HP 305 Black Ink Cartridge' });
    expect(approved.images).toHaveLength(1);
    expect(ofRequest('request.completed', credited)[0].data).toMatchObject({ status: 'completed', creditAmount: 250, transitStatus: 'received' });
    expect(ofRequest('request.cancelled', cancelled)[0].data.images).toHaveLength(1);
    const pushed = payloads.filter((p) => p.type === 'credit.pushed');
    expect(pushed).toHaveLength(1);
    expect(pushed[0].data).toMatchObject({ exchangeRequestId: credited, amount: 250, pushStatus: 'success', loyaltyPointsSuccess: true, customerEmail: customer.email });
    const failedPush = payloads.filter((p) => p.type === 'credit.failed');
    expect(failedPush).toHaveLength(1);
    expect(failedPush[0].data).toMatchObject({ exchangeRequestId: failing, amount: 90, pushStatus: 'failed', loyaltyPointsSuccess: false });
    // each event once: nothing left to send, and sending again sends nothing
    expect(await deliverDueWebhooks(t.ctx)).toEqual({ claimed: 0, succeeded: 0, failed: 0 });
    expect((await deliveriesOf(endpoint.id)).every((d) => d.status === 'succeeded' && d.attempts === 1)).toBe(true);
  });

  test('an endpoint gets only the events it subscribed to', async () => {
    const endpoint = await addEndpoint(['request.approved']);
    const customer = await shopper();
    const id = await requestAt(t, 'approved', customer, admin, warehouseId);
    await deliverDueWebhooks(t.ctx);
    expect(receiver.received.map((h) => [verified(endpoint.secret, h).type, JSON.parse(h.body).data.id])).toEqual([['request.approved', id]]);
  });

  test("after a receiver's 500 the same event (same webhook-id and body) is sent again after the backoff; every attempt is recorded", async () => {
    const endpoint = await addEndpoint(['request.created']);
    receiver.answerNext({ status: 500, body: 'database is down' });
    const customer = await shopper();
    await createRequest(t, customer);
    expect(await deliverDueWebhooks(t.ctx)).toEqual({ claimed: 1, succeeded: 0, failed: 1 });
    const [waiting] = await deliveriesOf(endpoint.id);
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500 });
    const wait = new Date(waiting!.next_attempt_at!).getTime() - Date.now();
    expect(wait).toBeGreaterThan(3_000); // 5 s ± 10 %
    expect(wait).toBeLessThan(6_000);
    expect(await deliverDueWebhooks(t.ctx)).toEqual({ claimed: 0, succeeded: 0, failed: 0 }); // not before it is due
    // the backoff over: the row falls due, as time passing would make it (instead of waiting those 5 s)
    await t.ctx.db.updateTable('webhook_deliveries').set({ next_attempt_at: sql`now()` }).where('id', '=', waiting!.id).execute();
    expect(await deliverDueWebhooks(t.ctx)).toEqual({ claimed: 1, succeeded: 1, failed: 0 });
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']!);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
    verified(endpoint.secret, receiver.received[1]!);
    const detail = await t.request('GET', `/api/admin/webhooks/deliveries/${waiting!.id}`, { token: admin.token });
    expect(detail.body).toMatchObject({ status: 'succeeded', attempts: 2, lastStatusCode: 200 });
    expect(detail.body.attemptLog.map((a: any) => [a.statusCode, a.responseExcerpt, a.error])).toEqual([
      [500, 'database is down', 'HTTP 500'],
      [200, 'ok', null],
    ]);
    expect(detail.body.attemptLog.every((a: any) => Number.isInteger(a.durationMs) && a.durationMs >= 0)).toBe(true);
  });

  test('a change that rolls back leaves nothing to send; a refused change (409) sends nothing', async () => {
    const endpoint = await addEndpoint();
    const customer = await shopper();
    const id = await createRequest(t, customer);
    await deliverDueWebhooks(t.ctx);
    receiver.received.length = 0;
    const row = await t.ctx.db.selectFrom('exchange_requests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const rolledBack = t.ctx.db.transaction().execute(async (trx) => {
      const changed = await trx.updateTable('exchange_requests').set({ status: 'declined' }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
      await emitRequestEvent(trx, 'request.declined', changed);
      expect(await trx.selectFrom('webhook_deliveries').select('id').where('event_type', '=', 'request.declined').execute()).toHaveLength(1);
      throw new Error('the change failed after its event was written');
    });
    await expect(rolledBack).rejects.toThrow('the change failed');
    expect((await t.ctx.db.selectFrom('exchange_requests').select('status').where('id', '=', row.id).executeTakeFirstOrThrow()).status).toBe('pending');
    // two admins decide at once: one change, one event
    const [a, b] = await Promise.all([
      t.request('PUT', `/api/admin/exchange-requests/${id}/status`, { token: admin.token, body: { status: 'declined', adminFeedback: 'Not a printer part' } }),
      t.request('PUT', `/api/admin/exchange-requests/${id}/status`, { token: admin.token, body: { status: 'approved', warehouseId } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    await deliverDueWebhooks(t.ctx);
    expect(receiver.received.map((h) => verified(endpoint.secret, h).type)).toEqual([a.status === 200 ? 'request.declined' : 'request.approved']);
    expect((await deliveriesOf(endpoint.id)).filter((d) => d.event_type === 'request.declined' || d.event_type === 'request.approved')).toHaveLength(1);
  });

  test('a redirect is not followed; redeliver sends the same event again at once', async () => {
    const endpoint = await addEndpoint(['request.created']);
    const elsewhere = startWebhookReceiver();
    try {
      receiver.answerNext({ status: 302, headers: { location: `${elsewhere.url}/stolen` } });
      await createRequest(t, await shopper());
      expect(await deliverDueWebhooks(t.ctx)).toMatchObject({ failed: 1 });
      expect(elsewhere.received).toHaveLength(0);
      const [delivery] = await deliveriesOf(endpoint.id);
      expect(delivery!.last_error).toBe(`Redirect to ${elsewhere.url}/stolen not followed`);
      const again = await t.request('POST', `/api/admin/webhooks/deliveries/${delivery!.id}/redeliver`, { token: admin.token });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ status: 'succeeded', attempts: 2 });
      expect(receiver.received.map((h) => h.headers['webhook-id'])).toEqual([delivery!.event_id, delivery!.event_id]);
      expect((await t.request('POST', '/api/admin/webhooks/deliveries/999999/redeliver', { token: admin.token })).status).toBe(404);
      expect((await t.request('POST', '/api/admin/webhooks/deliveries/abc/redeliver', { token: admin.token })).status).toBe(404);
    } finally {
      elsewhere.close();
    }
  });

  test('the POST goes to the address the name resolved to, asked once, with the name in the Host header; an address that refuses is passed over for the next', async () => {
    const port = new URL(receiver.url).port;
    const endpoint = await addEndpoint(['request.created'], `http://hooks.rebind.test:${port}/hooks`);
    // 127.0.0.2 refuses (the receiver listens on 127.0.0.1 only); a second question would get an address nobody serves
    const resolve = changingResolver(['127.0.0.2', '127.0.0.1'], ['127.0.0.3']);
    await createRequest(t, await shopper());
    expect(await deliverDueWebhooks(t.ctx, { resolve })).toEqual({ claimed: 1, succeeded: 1, failed: 0 });
    expect(resolve.calls).toEqual(['hooks.rebind.test']);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]).toMatchObject({ path: '/hooks', headers: { host: `hooks.rebind.test:${port}` } });
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: 'succeeded', last_error: null });
  });

  test("over https the pinned connection asks for the URL's name (SNI) and verifies the certificate: a certificate nobody signed is refused", async () => {
    const fixtures = `${import.meta.dir}/../fixtures/tls`;
    const serverNames: string[] = [];
    const tls = createTlsServer(
      {
        key: readFileSync(`${fixtures}/hooks.rebind.test-key.pem`),
        cert: readFileSync(`${fixtures}/hooks.rebind.test-cert.pem`),
        SNICallback: (name, done) => {
          serverNames.push(name);
          done(null, undefined);
        },
      },
      (socket) => socket.end(),
    );
    tls.on('tlsClientError', () => {});
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    try {
      const endpoint = await addEndpoint(['request.created'], `https://hooks.rebind.test:${(tls.address() as { port: number }).port}/hooks`);
      await createRequest(t, await shopper());
      expect(await deliverDueWebhooks(t.ctx, { resolve: changingResolver(['127.0.0.1'], ['127.0.0.3']) })).toMatchObject({ failed: 1 });
      expect(serverNames).toEqual(['hooks.rebind.test']);
      expect((await deliveriesOf(endpoint.id))[0]!.last_error).toContain('self signed certificate');
    } finally {
      tls.close();
    }
  });

  test('an endpoint that failed for the whole 24-hour window is disabled and the admins are mailed; 410 Gone disables at once; turned on again, what waited is sent', async () => {
    const endpoint = await addEndpoint(['request.created']);
    receiver.answerNext({ status: 503 }, { status: 503 });
    await createRequest(t, await shopper());
    await deliverDueWebhooks(t.ctx);
    // the retry window of this delivery runs out (as 24 hours later): the next failure gives up
    await t.ctx.db.updateTable('webhook_deliveries').set({ next_attempt_at: sql`now()`, retry_until: sql`now()` }).where('endpoint_id', '=', endpoint.id).execute();
    await deliverDueWebhooks(t.ctx);
    const [given] = await deliveriesOf(endpoint.id);
    expect(given).toMatchObject({ status: 'failed', attempts: 2, last_status_code: 503 });
    const list = await t.request('GET', '/api/admin/webhooks', { token: admin.token });
    expect(list.body[0]).toMatchObject({ enabled: false, consecutiveFailures: 2 });
    expect(list.body[0].disabledReason).toContain('Every attempt failed for 24 hours');
    const mails = await mailsTo(t, admin.email, 'webhook_disabled');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text_body).toContain(`${receiver.url}/hooks`);
    const failedList = await t.request('GET', `/api/admin/webhooks/deliveries?failed=true&endpoint=${endpoint.id}`, { token: admin.token });
    expect(failedList.body.map((d: any) => d.id)).toEqual([given!.id]);

    // disabled: new events wait for no one
    await createRequest(t, await shopper());
    expect(await deliverDueWebhooks(t.ctx)).toMatchObject({ claimed: 0 });

    const gone = await addEndpoint(['request.created'], `${receiver.url}/gone`);
    receiver.answerNext({ status: 410 });
    await createRequest(t, await shopper());
    await deliverDueWebhooks(t.ctx);
    expect((await t.request('GET', '/api/admin/webhooks', { token: admin.token })).body.find((e: any) => e.id === gone.id)).toMatchObject({ enabled: false, disabledReason: 'The receiver answered 410 Gone.' });

    const before = receiver.received.length;
    const on = await t.request('PUT', `/api/admin/webhooks/${endpoint.id}`, { token: admin.token, body: { enabled: true } });
    expect(on.body).toMatchObject({ enabled: true, consecutiveFailures: 0, disabledReason: null });
    expect(await deliverDueWebhooks(t.ctx)).toMatchObject({ claimed: 0 }); // it was disabled when they happened: nothing was queued for it
    await createRequest(t, await shopper());
    expect(await deliverDueWebhooks(t.ctx)).toMatchObject({ succeeded: 1 });
    expect(receiver.received.length).toBe(before + 1);
    expect((await t.request('DELETE', `/api/admin/webhooks/${gone.id}`, { token: admin.token })).status).toBe(200);
    expect((await t.request('DELETE', `/api/admin/webhooks/${gone.id}`, { token: admin.token })).status).toBe(404);
  });
});

describe.each(databaseKinds())('webhooks are safe by default (%s)', (kind) => {
  let t: TestApp;
  let admin: Person;
  let listener: Server;
  let connections = 0;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signInPerson(t, uniqueEmail('admin'), { admin: true });
    listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '0.0.0.0', resolve));
  });
  afterAll(async () => {
    listener.close();
    await t.close();
  });
  beforeEach(async () => {
    await t.ctx.db.deleteFrom('webhook_endpoints').execute();
  });

  test.each([
    ['http://example.com/hooks', 'Webhook URLs must use https.'],
    ['https://127.0.0.1/hooks', 'Webhook URLs must not point to a private, loopback or link-local address.'],
    ['https://10.1.2.3/hooks', 'Webhook URLs must not point to a private, loopback or link-local address.'],
    ['https://192.168.0.10/hooks', 'Webhook URLs must not point to a private, loopback or link-local address.'],
    ['https://169.254.169.254/latest/meta-data', 'Webhook URLs must not point to a private, loopback or link-local address.'],
    ['https://[::1]/hooks', 'Webhook URLs must not point to a private, loopback or link-local address.'],
    ['https://[::ffff:10.0.0.1]/hooks', 'Webhook URLs must not point to a private, loopback or link-local address.'],
    ['https://[fd00::1]/hooks', 'Webhook URLs must not point to a private, loopback or link-local address.'],
    ...CARRY_PRIVATE_IPV4.map((a) => [`https://[${a}]/hooks`, 'Webhook URLs must not point to a private, loopback or link-local address.'] as const),
    ['https://localhost/hooks', 'Webhook URLs must not point to a private, loopback or link-local address.'],
    [`https://${hostname()}/hooks`, `(${hostname()} resolves to`],
    ['https://user:pw@example.com/hooks', 'The URL must not contain a user name or password.'],
    ['not a url', 'Enter a full URL, like https://example.com/webhooks.'],
  ])('%s is refused when saved', async (url, message) => {
    const res = await t.request('POST', '/api/admin/webhooks', { token: admin.token, body: { url, events: ['request.created'] } });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(message);
  });

  test('a saved endpoint whose name now resolves to a private address is refused at delivery: nothing connects, the attempt says why', async () => {
    const port = (listener.address() as { port: number }).port;
    // saved while the name pointed elsewhere (the URL as written passes; only the resolved address is private)
    const endpoint = await t.ctx.db
      .insertInto('webhook_endpoints')
      .values({ url: `https://${hostname()}:${port}/hooks`, events: ['request.created'], secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const customer = await signInPerson(t);
    await createRequest(t, customer);
    expect(await deliverDueWebhooks(t.ctx)).toEqual({ claimed: 1, succeeded: 0, failed: 1 });
    expect(connections).toBe(0);
    const delivery = await t.ctx.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpoint.id).executeTakeFirstOrThrow();
    expect(delivery.status).toBe('pending');
    expect(delivery.last_error).toStartWith('Not sent: Webhook URLs must not point to a private, loopback or link-local address.');
    expect(delivery.last_error).toContain(`${hostname()} resolves to`);
  });

  test('DNS rebinding: the connection goes to the address that was checked, not to what the name resolves to a moment later', async () => {
    const port = (listener.address() as { port: number }).port;
    // the check is answered with a public address; the system's DNS, which an unpinned request would
    // ask again, resolves this machine's name to an address where the listener counts connections
    const endpoint = await t.ctx.db
      .insertInto('webhook_endpoints')
      .values({ url: `https://${hostname()}:${port}/hooks`, events: ['request.created'], secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const resolve = changingResolver(['203.0.113.10'], ['127.0.0.1']);
    await createRequest(t, await signInPerson(t));
    expect(await deliverDueWebhooks(t.ctx, { resolve })).toEqual({ claimed: 1, succeeded: 0, failed: 1 });
    expect(resolve.calls).toEqual([hostname()]);
    expect(connections).toBe(0);
    const delivery = await t.ctx.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpoint.id).executeTakeFirstOrThrow();
    // it was sent (to 203.0.113.10, which has no such receiver), not refused; the error names the URL, not the address
    expect(delivery.last_error).not.toStartWith('Not sent');
    expect(delivery.last_error).not.toContain('203.0.113.10');
  });

  test('a name resolving to a 6to4 or Teredo address that carries a private IPv4 address is refused at delivery', async () => {
    const values = { url: 'https://hooks.tunnel.test/hooks', events: ['request.created'], secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' };
    const endpoint = await t.ctx.db.insertInto('webhook_endpoints').values(values).returning('id').executeTakeFirstOrThrow();
    await createRequest(t, await signInPerson(t));
    expect(await deliverDueWebhooks(t.ctx, { resolve: changingResolver(['2001:0:cb00:7101::80ff:fffe', '2002:a9fe:a9fe::1'], ['2001:0:cb00:7101::80ff:fffe']) })).toEqual({ claimed: 1, succeeded: 0, failed: 1 });
    const delivery = await t.ctx.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpoint.id).executeTakeFirstOrThrow();
    expect(delivery.last_error).toBe('Not sent: Webhook URLs must not point to a private, loopback or link-local address. (hooks.tunnel.test resolves to 2001:0:cb00:7101::80ff:fffe)');
  });

  test('a name with one private address among public ones is refused at delivery, naming that address', async () => {
    const endpoint = await t.ctx.db
      .insertInto('webhook_endpoints')
      .values({ url: 'https://hooks.rebind.test/hooks', events: ['request.created'], secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await createRequest(t, await signInPerson(t));
    expect(await deliverDueWebhooks(t.ctx, { resolve: changingResolver(['203.0.113.10', '10.0.0.7'], ['203.0.113.10']) })).toEqual({ claimed: 1, succeeded: 0, failed: 1 });
    const delivery = await t.ctx.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpoint.id).executeTakeFirstOrThrow();
    expect(delivery.last_error).toBe('Not sent: Webhook URLs must not point to a private, loopback or link-local address. (hooks.rebind.test resolves to 10.0.0.7)');
  });
});
