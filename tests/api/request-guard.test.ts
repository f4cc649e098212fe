import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { addCustomer } from '#api/modules/customers/service.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/helpers/app.ts';

const CUSTOMER = 'asha.rao@example.com';
const CROSS_SITE = 'This request came from another site and was refused.';
const JSON_ONLY = 'Send the request body as JSON (Content-Type: application/json).';

describe.each(databaseKinds())('changes from another site and bodies that are not JSON (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { SIGNIN_LIMIT_PER_EMAIL: '1000' });
    await addCustomer(t.ctx.db, { email: CUSTOMER, name: 'Asha Rao' });
  });
  afterAll(() => t.close());

  async function freshToken(): Promise<string> {
    expect((await t.request('POST', '/api/auth/login', { body: { email: CUSTOMER } })).status).toBe(202);
    return new URL(await t.lastSignInLink(CUSTOMER)).searchParams.get('token')!;
  }

  test('a valid sign-in link posted as a cross-site form opens no session (login CSRF)', async () => {
    const token = await freshToken();
    const form = new URLSearchParams({ email: CUSTOMER, token }).toString();
    const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };
    const sites: Record<string, string>[] = [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { origin: 'null' }];
    for (const site of sites) {
      const res = await t.request('POST', '/api/auth/verify-email', { body: form, headers: { ...formHeaders, ...site } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: CROSS_SITE });
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    // a form from no known site (an old browser sends no Origin) is still not JSON
    const plain = await t.request('POST', '/api/auth/verify-email', { body: form, headers: formHeaders });
    expect(plain.status).toBe(415);
    expect(plain.body).toEqual({ error: JSON_ONLY });
    expect(plain.headers.get('set-cookie')).toBeNull();
    // the link was not spent by any of them: the person it was sent to still signs in with it
    const ok = await t.request('POST', '/api/auth/verify-email', { body: { email: CUSTOMER, token }, headers: { origin: TEST_ORIGIN } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('set-cookie')).toContain('sp_session=');
  });

  test('every unsafe /api request from another site is refused, with or without a cookie or bearer token', async () => {
    const session = await t.signIn(CUSTOMER);
    const cases: [string, string, unknown][] = [
      ['POST', '/api/auth/login', { email: CUSTOMER }],
      ['POST', '/api/shopify/check-customer', { email: CUSTOMER }],
      ['POST', '/api/exchange', { productName: 'x' }],
      ['PUT', '/api/admin/exchange-requests/00000000-0000-4000-8000-000000000000/status', { status: 'approved' }],
      ['DELETE', '/api/exchange/00000000-0000-4000-8000-000000000000', undefined],
      ['PATCH', '/api/auth/profile', {}],
    ];
    const before = await t.ctx.db.selectFrom('mail_outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    for (const [method, path, body] of cases) {
      const withCredentials: Record<string, string>[] = [{}, { cookie: `sp_session=${session}` }, { authorization: `Bearer ${session}` }];
      for (const credentials of withCredentials) {
        const res = await t.request(method, path, { body, headers: { origin: 'https://evil.example', ...credentials } });
        expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} 403`);
        expect(res.body).toEqual({ error: CROSS_SITE });
      }
    }
    const after = await t.ctx.db.selectFrom('mail_outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n)); // no sign-in mail went out for the refused logins
    // reading is not a change: a cross-site GET still answers
    expect((await t.request('GET', '/api/auth/profile', { token: session, headers: { origin: 'https://evil.example' } })).status).toBe(200);
  });

  test('/api accepts only JSON bodies: a form, text or XML body is 415; JSON with a charset is fine', async () => {
    const bodies: [string, string][] = [
      ['application/x-www-form-urlencoded', 'email=asha.rao%40example.com'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\nasha.rao@example.com\r\n--x--\r\n'],
      ['text/plain', JSON.stringify({ email: CUSTOMER })],
      ['application/xml', '<email>asha.rao@example.com</email>'],
    ];
    for (const [contentType, body] of bodies) {
      const res = await t.request('POST', '/api/auth/login', { body, headers: { 'content-type': contentType } });
      expect(`${contentType} ${res.status}`).toBe(`${contentType} 415`);
      expect(res.body).toEqual({ error: JSON_ONLY });
    }
    const json = await t.request('POST', '/api/auth/login', { body: JSON.stringify({ email: CUSTOMER }), headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(json.status).toBe(202);
    // a change without a body needs no content type
    const session = await t.signIn(CUSTOMER);
    expect((await t.request('POST', '/api/auth/logout', { token: session })).status).toBe(200);
  });
});
