import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { createHmac } from 'node:crypto';
import { getJob, listJobs, retryJob } from '#api/jobs/list.ts';
import { pruneExpiredRows } from '#api/jobs/prune.ts';
import { remindExpiringCredits } from '#api/modules/credit/expiry.ts';
import { loadSettings } from '#api/settings.ts';
import { LANGUAGE_INVALID, PHONE_INVALID, PHONE_NEEDED, WHATSAPP_INVALID } from '#api/modules/users/rules.ts';
import { OPTED_OUT_ERROR, VERIFY_TOKEN_INVALID, WEBHOOK_SIGNATURE_INVALID, WHATSAPP_TEMPLATES } from '#api/modules/whatsapp/rules.ts';
import { listNotifications } from '#api/modules/whatsapp/notifications.ts';
import { queueWhatsApp } from '#api/modules/whatsapp/service.ts';
import { sendDueWhatsApp } from '#api/modules/whatsapp/worker.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { FAKE_PHONE_NUMBER_ID, startFakeWhatsApp, type FakeWhatsApp } from '#tests/helpers/fake-whatsapp.ts';
import { createWarehouse, requestAt, signInPerson, type Person } from '#tests/helpers/fixtures.ts';

// journeys drive a request through every step: room for a machine shared with other work
setDefaultTimeout(60_000);

const SECRET = 'fake-app-secret';
const sign = (body: string, secret = SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
let phones = 0;
/** A distinct Indian mobile number per call, as a customer types it (10 digits, a space). */
const newPhone = () => {
  const digits = `9${String(process.pid % 10_000).padStart(4, '0')}${String(++phones).padStart(5, '0')}`;
  return { typed: `${digits.slice(0, 5)} ${digits.slice(5)}`, e164: `+91${digits}`, digits: `91${digits}` };
};

describe('WhatsApp settings', () => {
  const base = { JWT_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/sp-whatsapp-settings' };
  const full = { WHATSAPP_TOKEN: 't', WHATSAPP_PHONE_NUMBER_ID: '1065403522', WHATSAPP_APP_SECRET: 's', WHATSAPP_VERIFY_TOKEN: 'verify-me' };
  test('unset, the channel is off; a half setup is refused naming the missing setting; the API URL defaults to Graph v21.0', () => {
    expect(loadSettings(base).whatsapp).toBeUndefined();
    expect(() => loadSettings({ ...base, WHATSAPP_PHONE_NUMBER_ID: '1065403522' })).toThrow(/WHATSAPP_TOKEN/);
    expect(() => loadSettings({ ...base, WHATSAPP_TOKEN: 't' })).toThrow(/WHATSAPP_PHONE_NUMBER_ID/);
    expect(() => loadSettings({ ...base, ...full, WHATSAPP_APP_SECRET: '' })).toThrow(/WHATSAPP_APP_SECRET/);
    expect(() => loadSettings({ ...base, ...full, WHATSAPP_TEMPLATE_NAMES: 'nope=abc' })).toThrow(/WHATSAPP_TEMPLATE_NAMES/);
    expect(() => loadSettings({ ...base, ...full, WHATSAPP_LANGUAGE_CODES: 'hi=Hindi' })).toThrow(/WHATSAPP_LANGUAGE_CODES/);
    const on = loadSettings({ ...base, ...full, WHATSAPP_LANGUAGE_CODES: 'en=en_US' }).whatsapp!;
    expect(on.apiUrl).toBe('https://graph.facebook.com/v21.0');
    expect(on.languageCodes).toEqual({ en: 'en_US', hi: 'hi' });
  });
});

describe.each(databaseKinds())('WhatsApp notifications (%s)', (kind) => {
  let fake: FakeWhatsApp;
  let t: TestApp;
  let admin: Person;
  let warehouseId: string;

  beforeAll(async () => {
    fake = startFakeWhatsApp();
    t = await createTestApp(kind, fake.env({ WHATSAPP_TEMPLATE_NAMES: 'credit_assigned=shop_credit_ready' }));
    admin = await signInPerson(t, undefined, { admin: true });
    warehouseId = (await createWarehouse(t, admin)).id;
  }, 60_000);
  afterAll(async () => {
    await t.close();
    fake.close();
  }, 30_000);

  /** A customer who opted in on their profile, in `language`. */
  async function optedIn(language: 'en' | 'hi' = 'en') {
    const person = await signInPerson(t);
    const phone = newPhone();
    const res = await t.request('PUT', '/api/profile', { token: person.token, body: { phone: phone.typed, whatsapp: true, language } });
    expect(res.status).toBe(200);
    return { ...person, phone };
  }
  const sentTo = (digits: string) => fake.messages.filter((m) => m.to === digits);
  const outboxOf = (userId: string) => t.ctx.db.selectFrom('whatsapp_outbox').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  const webhook = (body: string, signature?: string | null) =>
    t.request('POST', '/api/whatsapp/webhook', { body, headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'x-hub-signature-256': signature ?? sign(body) }) } });

  describe('the profile', () => {
    test('GET /api/auth/profile shows phone, WhatsApp and language; PUT /api/profile stores a 10-digit Indian number as +91… and opts in', async () => {
      const person = await signInPerson(t);
      const before = await t.request('GET', '/api/auth/profile', { token: person.token });
      expect(before.body).toMatchObject({ email: person.email, phone: null, whatsapp: false, language: 'en' });
      const saved = await t.request('PUT', '/api/profile', { token: person.token, body: { phone: '098765-43210', whatsapp: true, language: 'hi' } });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({ phone: '+919876543210', whatsapp: true, language: 'hi' });
      expect((await t.request('GET', '/api/auth/profile', { token: person.token })).body).toMatchObject({ phone: '+919876543210', whatsapp: true, language: 'hi' });
      const abroad = await t.request('PUT', '/api/profile', { token: person.token, body: { phone: '+44 7911 123456' } });
      expect(abroad.body).toMatchObject({ phone: '+447911123456', whatsapp: true });
      const removed = await t.request('PUT', '/api/profile', { token: person.token, body: { phone: '' } });
      expect(removed.body).toMatchObject({ phone: null, whatsapp: false, language: 'hi' });
    });

    test('a bad phone, an unknown language or a non-boolean WhatsApp choice is 400 naming the field; opting in without a phone is 400', async () => {
      const person = await signInPerson(t);
      for (const phone of ['12345', '5876543210', '+91 12345 67890', 'call me', '+0123456789', 'x'.repeat(40)]) {
        const res = await t.request('PUT', '/api/profile', { token: person.token, body: { phone, whatsapp: true } });
        expect({ phone, status: res.status, body: res.body }).toEqual({ phone, status: 400, body: { error: PHONE_INVALID } });
      }
      for (const language of ['fr', 'HI', '', 7, null]) {
        const res = await t.request('PUT', '/api/profile', { token: person.token, body: { language } });
        expect({ language, status: res.status, body: res.body }).toEqual({ language, status: 400, body: { error: LANGUAGE_INVALID } });
      }
      expect((await t.request('PUT', '/api/profile', { token: person.token, body: { whatsapp: 'yes' } })).body).toEqual({ error: WHATSAPP_INVALID });
      expect((await t.request('PUT', '/api/profile', { token: person.token, body: { whatsapp: true } })).body).toEqual({ error: PHONE_NEEDED });
      expect((await t.request('PUT', '/api/profile', { token: person.token, body: { whatsapp: true, phone: ' ' } })).body).toEqual({ error: PHONE_NEEDED });
      expect((await t.request('GET', '/api/auth/profile', { token: person.token })).body).toMatchObject({ phone: null, whatsapp: false, language: 'en' });
      expect((await t.request('PUT', '/api/profile', { body: { language: 'hi' } })).status).toBe(401);
    });
  });

  describe('sending', () => {
    test('journey: a customer opts in in Hindi; approved, received, credited and completed each reach the Cloud API as their template in hi, beside the mail', async () => {
      const customer = await optedIn('hi');
      const id = await requestAt(t, 'completed', customer, admin, warehouseId, 750);
      await sendDueWhatsApp(t.ctx);
      const got = sentTo(customer.phone.digits);
      expect(got.map((m) => m.name)).toEqual([
        WHATSAPP_TEMPLATES.request_approved.name,
        WHATSAPP_TEMPLATES.item_received.name,
        'shop_credit_ready',
        WHATSAPP_TEMPLATES.exchange_completed.name,
      ]);
      expect(got.every((m) => m.language === 'hi')).toBe(true);
      const approved = got[0]!;
      expect(approved.params).toHaveLength(3);
      expect(approved.params[1]).not.toContain('\n');
      // the address reads in Hindi too: its contact line's label is the mail's
      expect(approved.params[1]).toContain('संपर्क: Suresh Kumar, +91 80 4000 1800');
      expect(approved.params[2]).toBe(`http://localhost:3000/exchange/${id}`);
      expect(approved.body).toMatchObject({ messaging_product: 'whatsapp', to: customer.phone.digits, type: 'template', template: { language: { code: 'hi' }, components: [{ type: 'body' }] } });
      expect(got[2]!.params[1]).toBe('₹750.00');
      const rows = await outboxOf(customer.id);
      expect(rows.map((r) => [r.status, r.delivery_status, r.wa_message_id])).toEqual(got.map((m) => ['sent', 'sent', m.id]));
      const mails = await t.ctx.db.selectFrom('mail_outbox').select('kind').where('to_email', '=', customer.email).where('kind', '!=', 'sign_in').orderBy('id').execute();
      expect(mails.map((m) => m.kind)).toEqual(['request_approved', 'item_received', 'credit_assigned', 'exchange_completed']);
      const listed = await listNotifications(t.ctx.db, { channel: 'whatsapp', limit: 1000 });
      expect(listed.filter((n) => n.to === customer.phone.e164).map((n) => n.kind)).toEqual(['exchange_completed', 'credit_assigned', 'item_received', 'request_approved']);
      expect((await listNotifications(t.ctx.db, { channel: 'mail', limit: 5 })).every((n) => n.channel === 'mail')).toBe(true);
    });

    test('the credit expiry reminder reaches an opted-in customer beside its mail, once', async () => {
      const customer = await optedIn('en');
      const id = await requestAt(t, 'credited', customer, admin, warehouseId, 420);
      await sendDueWhatsApp(t.ctx);
      const ledger = await t.ctx.db
        .updateTable('credit_ledger')
        .set({ expires_at: new Date(Date.now() + 3 * 86_400_000) })
        .where('exchange_request_id', '=', id)
        .where('push_status', '=', 'success')
        .returning('id')
        .executeTakeFirst();
      expect(ledger).toBeDefined();
      expect(await remindExpiringCredits(t.ctx)).toBeGreaterThanOrEqual(1);
      await sendDueWhatsApp(t.ctx);
      const reminders = sentTo(customer.phone.digits).filter((m) => m.name === WHATSAPP_TEMPLATES.credit_expiry_reminder.name);
      expect(reminders.map((m) => [m.params[0], m.params[2]])).toEqual([['₹420.00', 'http://localhost:3000/dashboard']]);
      expect(await remindExpiringCredits(t.ctx)).toBe(0);
    });

    test('a declined request reaches an opted-in customer in English with the reason', async () => {
      const customer = await optedIn('en');
      await requestAt(t, 'declined', customer, admin, warehouseId);
      await sendDueWhatsApp(t.ctx);
      expect(sentTo(customer.phone.digits).map((m) => [m.name, m.language, m.params[1]])).toEqual([[WHATSAPP_TEMPLATES.request_declined.name, 'en', 'Not a printer part']]);
    });

    test('nobody who has not opted in gets a message: no phone, a phone without opt-in, or the channel off', async () => {
      const silent = await signInPerson(t);
      const withPhone = await signInPerson(t);
      const phone = newPhone();
      await t.request('PUT', '/api/profile', { token: withPhone.token, body: { phone: phone.typed } });
      const before = fake.requests;
      await requestAt(t, 'approved', silent, admin, warehouseId);
      await requestAt(t, 'approved', withPhone, admin, warehouseId);
      await sendDueWhatsApp(t.ctx);
      expect(await outboxOf(silent.id)).toEqual([]);
      expect(await outboxOf(withPhone.id)).toEqual([]);
      expect(fake.requests).toBe(before);
      const customer = await optedIn();
      const off = { settings: loadSettings({ JWT_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/sp-whatsapp-off' }) };
      expect(await queueWhatsApp(t.ctx.db, off, { userId: customer.id, template: 'item_received', params: { product: 'Toner', link: 'x' } })).toBeNull();
      expect(await outboxOf(customer.id)).toEqual([]);
    });

    test('a customer who opts out after a message was queued does not get it: it is given up with the reason kept', async () => {
      const customer = await optedIn();
      await requestAt(t, 'approved', customer, admin, warehouseId);
      await t.request('PUT', '/api/profile', { token: customer.token, body: { whatsapp: false } });
      await sendDueWhatsApp(t.ctx);
      expect(sentTo(customer.phone.digits)).toEqual([]);
      expect((await outboxOf(customer.id)).map((r) => [r.status, r.last_error])).toEqual([['failed', OPTED_OUT_ERROR]]);
    });

    test('a 5xx is tried again with backoff, each attempt kept; then it is sent once', async () => {
      const customer = await optedIn();
      await requestAt(t, 'approved', customer, admin, warehouseId);
      fake.answerNext({ status: 503 });
      const first = await sendDueWhatsApp(t.ctx);
      expect(first).toMatchObject({ claimed: 1, failed: 1 });
      const [row] = await outboxOf(customer.id);
      expect(row).toMatchObject({ status: 'pending', attempts: 1, last_error: 'HTTP 503: (#131000) Something went wrong' });
      expect(new Date(row!.next_attempt_at!).getTime()).toBeGreaterThan(Date.now() + 20_000);
      expect((await sendDueWhatsApp(t.ctx)).claimed).toBe(0); // not due yet
      expect((await getJob(t.ctx.db, `whatsapp:${row!.id}`)).state).toBe('retrying');
      await t.ctx.db.updateTable('whatsapp_outbox').set({ next_attempt_at: new Date() }).where('id', '=', row!.id).execute();
      expect(await sendDueWhatsApp(t.ctx)).toMatchObject({ claimed: 1, succeeded: 1 });
      expect(sentTo(customer.phone.digits)).toHaveLength(1);
      const attempts = await t.ctx.db.selectFrom('whatsapp_attempts').select(['status_code', 'error']).where('message_id', '=', row!.id).orderBy('id').execute();
      expect(attempts).toEqual([
        { status_code: 503, error: 'HTTP 503: (#131000) Something went wrong' },
        { status_code: 200, error: null },
      ]);
    });

    test('a refused token (401) is not the message\'s fault: it waits and is tried again', async () => {
      const customer = await optedIn();
      await requestAt(t, 'approved', customer, admin, warehouseId);
      const wrongToken = await fetch(`${fake.url}/${FAKE_PHONE_NUMBER_ID}/messages`, { method: 'POST', headers: { authorization: 'Bearer expired', 'content-type': 'application/json' }, body: '{}' });
      const refusal = await wrongToken.json();
      expect(wrongToken.status).toBe(401);
      fake.answerNext({ status: 401, body: refusal });
      await sendDueWhatsApp(t.ctx);
      expect((await outboxOf(customer.id))[0]).toMatchObject({ status: 'pending', attempts: 1, last_error: 'HTTP 401: (#190) Invalid OAuth access token - Cannot parse access token' });
      expect(sentTo(customer.phone.digits)).toEqual([]);
    });

    test('a 4xx is permanent: dead at once with the Graph error kept; jobs retry sends it', async () => {
      const customer = await optedIn();
      await requestAt(t, 'approved', customer, admin, warehouseId);
      fake.answerNext({ status: 400, body: { error: { message: 'Message Undeliverable', type: 'OAuthException', code: 131026, fbtrace_id: 'x' } } });
      await sendDueWhatsApp(t.ctx);
      const [row] = await outboxOf(customer.id);
      expect(row).toMatchObject({ status: 'failed', attempts: 1, next_attempt_at: null, last_error: 'HTTP 400: (#131026) Message Undeliverable' });
      const dead = await listJobs(t.ctx.db, { kind: 'whatsapp', failed: true, limit: 100 });
      expect(dead.find((j) => j.id === `whatsapp:${row!.id}`)).toMatchObject({ state: 'dead', lastError: 'HTTP 400: (#131026) Message Undeliverable' });
      expect(await retryJob(t.ctx, `whatsapp:${row!.id}`)).toMatchObject({ state: 'done', attempts: 2 });
      expect(sentTo(customer.phone.digits)).toHaveLength(1);
    });

    test('a Cloud API that does not answer times out and is tried again later', async () => {
      const customer = await optedIn();
      await requestAt(t, 'approved', customer, admin, warehouseId);
      fake.answerNext('hang');
      // a short timeout for this send only: at 0.4 s, a loaded machine could overrun it on the others
      const impatient = { ...t.ctx, settings: { ...t.ctx.settings, whatsapp: { ...t.ctx.settings.whatsapp!, timeoutMs: 400 } } };
      expect(await sendDueWhatsApp(impatient)).toMatchObject({ claimed: 1, failed: 1 });
      expect((await outboxOf(customer.id))[0]).toMatchObject({ status: 'pending', attempts: 1, last_error: 'No answer within 0.4 s' });
      expect(sentTo(customer.phone.digits)).toEqual([]);
    });

    test('sent messages older than MAIL_RETENTION_DAYS are pruned with their attempts; failed ones stay', async () => {
      const customer = await optedIn();
      await requestAt(t, 'received', customer, admin, warehouseId);
      fake.answerNext({ status: 400 });
      await sendDueWhatsApp(t.ctx);
      const [failed, sent] = await outboxOf(customer.id);
      expect([failed!.status, sent!.status]).toEqual(['failed', 'sent']);
      await t.ctx.db.updateTable('whatsapp_outbox').set({ sent_at: new Date(Date.now() - 31 * 86_400_000) }).where('id', '=', sent!.id).execute();
      await t.ctx.db.updateTable('whatsapp_outbox').set({ created_at: new Date(Date.now() - 31 * 86_400_000) } as never).where('id', '=', failed!.id).execute();
      const report = await pruneExpiredRows(t.ctx);
      expect(report.sentWhatsApp).toBeGreaterThanOrEqual(1);
      expect((await outboxOf(customer.id)).map((r) => r.id)).toEqual([failed!.id]);
      expect(await t.ctx.db.selectFrom('whatsapp_attempts').select('id').where('message_id', '=', sent!.id).execute()).toEqual([]);
    });

    test('never sent twice: two workers racing over the same due messages send each once', async () => {
      const customers = await Promise.all([optedIn(), optedIn(), optedIn()]);
      for (const c of customers) await requestAt(t, 'approved', c, admin, warehouseId);
      const reports = await Promise.all([sendDueWhatsApp(t.ctx), sendDueWhatsApp(t.ctx), sendDueWhatsApp(t.ctx)]);
      expect(reports.reduce((n, r) => n + r.succeeded, 0)).toBe(3);
      for (const c of customers) expect(sentTo(c.phone.digits)).toHaveLength(1);
      expect((await sendDueWhatsApp(t.ctx)).claimed).toBe(0);
    });
  });

  describe('the webhook', () => {
    test('GET answers hub.challenge only with the right hub.verify_token (403 otherwise)', async () => {
      const ok = await t.request('GET', '/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=fake-verify-token&hub.challenge=1158201444');
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toStartWith('text/plain');
      expect(ok.body).toBe(1158201444); // the text, as the test helper parses it
      for (const query of ['hub.mode=subscribe&hub.verify_token=wrong-token&hub.challenge=1', 'hub.mode=subscribe&hub.challenge=1', 'hub.mode=unsubscribe&hub.verify_token=fake-verify-token&hub.challenge=1']) {
        const res = await t.request('GET', `/api/whatsapp/webhook?${query}`);
        expect({ query, status: res.status, body: res.body }).toEqual({ query, status: 403, body: { error: VERIFY_TOKEN_INVALID } });
      }
    });

    test('POST is refused (401) without a signature, with a wrong one, or when the signed bytes were changed', async () => {
      const body = JSON.stringify({ object: 'whatsapp_business_account', entry: [] });
      expect((await webhook(body, null)).body).toEqual({ error: WEBHOOK_SIGNATURE_INVALID });
      expect((await webhook(body, null)).status).toBe(401);
      expect((await webhook(body, sign(body, 'another-secret'))).status).toBe(401);
      expect((await webhook(body, 'sha256=zz')).status).toBe(401);
      // the same JSON with other whitespace: the signature is over the raw bytes
      expect((await webhook(JSON.stringify(JSON.parse(body), null, 1), sign(body))).status).toBe(401);
      const good = await webhook(body);
      expect(good.status).toBe(200);
      expect(good.body).toEqual({ statuses: 0, optedOut: 0 });
    });

    test('delivery statuses update the message, only forward; a failed status keeps its error', async () => {
      const customer = await optedIn();
      await requestAt(t, 'received', customer, admin, warehouseId);
      await sendDueWhatsApp(t.ctx);
      const [approved, received] = sentTo(customer.phone.digits);
      const statuses = (list: { id: string; status: string; errors?: unknown[] }[]) =>
        JSON.stringify({
          object: 'whatsapp_business_account',
          entry: [{ id: '1', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { phone_number_id: '1' }, statuses: list.map((s) => ({ ...s, timestamp: '1700000000', recipient_id: customer.phone.digits })) } }] }],
        });
      const res = await webhook(statuses([{ id: approved!.id, status: 'delivered' }, { id: approved!.id, status: 'read' }, { id: received!.id, status: 'failed', errors: [{ code: 131047, title: 'Re-engagement message' }] }]));
      expect(res.body).toEqual({ statuses: 3, optedOut: 0 });
      expect((await webhook(statuses([{ id: approved!.id, status: 'delivered' }]))).body).toEqual({ statuses: 0, optedOut: 0 });
      const rows = await outboxOf(customer.id);
      expect(rows.map((r) => [r.delivery_status, r.delivery_error])).toEqual([
        ['read', null],
        ['failed', '(#131047) Re-engagement message'],
      ]);
      expect(rows[0]!.read_at).not.toBeNull();
    });

    test('a STOP reply (any case, spaces around) opts the sender out: the profile shows it and nothing more is queued', async () => {
      const customer = await optedIn();
      const other = await optedIn();
      const reply = (from: string, text: string) =>
        JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: '1', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', contacts: [{ wa_id: from }], messages: [{ from, id: 'wamid.in', timestamp: '1700000000', type: 'text', text: { body: text } }] } }] }] });
      expect((await webhook(reply(other.phone.digits, 'stop sending please'))).body).toEqual({ statuses: 0, optedOut: 0 });
      expect((await webhook(reply(customer.phone.digits, '  sToP \n'))).body).toEqual({ statuses: 0, optedOut: 1 });
      expect((await t.request('GET', '/api/auth/profile', { token: customer.token })).body).toMatchObject({ whatsapp: false, phone: customer.phone.e164 });
      expect((await t.request('GET', '/api/auth/profile', { token: other.token })).body).toMatchObject({ whatsapp: true });
      await requestAt(t, 'approved', customer, admin, warehouseId);
      expect(await outboxOf(customer.id)).toEqual([]);
    });

    test('odd notifications are answered without a 500: not JSON is 400, unknown shapes are ignored', async () => {
      expect((await webhook('not json')).status).toBe(400);
      for (const body of ['null', '[]', '{"entry":"x"}', '{"entry":[{"changes":[{"value":{"statuses":[{"id":5,"status":"read"}],"messages":[{"from":"1","type":"text","text":{"body":"STOP"}}]}}]}]}']) {
        expect((await webhook(body)).status).toBe(200);
      }
    });
  });
});
