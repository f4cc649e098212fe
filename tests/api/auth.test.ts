import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sql } from 'kysely';
import { hashToken } from '#api/lib/tokens.ts';
import { addCustomer } from '#api/modules/customers/service.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/helpers/app.ts';

const CUSTOMER = 'asha.rao@example.com';
const SESSION_ENDED_401 = [401, { error: 'Your session has ended. Please sign in again.' }];
/** GET /api/auth/profile with `token`: the status and the body, so a refusal's message is checked too. */
const profileAnswer = async (t: TestApp, token: string) => {
  const res = await t.request('GET', '/api/auth/profile', { token });
  return [res.status, res.body];
};

describe.each(databaseKinds())('sign-in and sessions (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { SIGNIN_LIMIT_PER_EMAIL: '1000', SIGNIN_LIMIT_PER_IP: '1000' });
    await addCustomer(t.ctx.db, { email: CUSTOMER, name: 'Asha Rao', shopCustomerId: '7301001001' });
  });
  afterAll(() => t.close());

  const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

  describe('POST /api/auth/login', () => {
    test("an email without '@' gives 'Please enter a valid email address'", async () => {
      for (const email of ['', '   ', 'no-at-sign', 'a@', '@b']) {
        const res = await t.request('POST', '/api/auth/login', { body: { email } });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'Please enter a valid email address' });
      }
    });

    test('a missing or non-string email gives the same message', async () => {
      for (const body of [{}, { email: 42 }, [], 'null']) {
        const res = await t.request('POST', '/api/auth/login', { body, headers: { 'content-type': 'application/json' } });
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('Please enter a valid email address');
      }
    });

    test('an email that is not a shop customer is refused with 422 and the not-in-shop message', async () => {
      const res = await t.request('POST', '/api/auth/login', { body: { email: 'Nobody@Example.com' } });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: 'Email "Nobody@Example.com" not found in Shopify database. Only existing Shopify customers can login.',
        notInShopify: true,
      });
      const mails = await t.ctx.db.selectFrom('mail_outbox').selectAll().where('to_email', '=', 'nobody@example.com').execute();
      expect(mails).toHaveLength(0);
    });

    test('a customer gets 202 and a one-time link by mail, never a session', async () => {
      const res = await t.request('POST', '/api/auth/login', { body: { email: '  ASHA.RAO@example.com ' } });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ sent: true, email: CUSTOMER, message: `Account found for ${CUSTOMER}. We've emailed you a sign-in link.` });
      expect(res.body.sessionToken).toBeUndefined();
      expect(res.headers.get('set-cookie')).toBeNull();
      const link = await t.lastSignInLink(CUSTOMER);
      expect(link.startsWith(`${TEST_ORIGIN}/verify-email?token=`)).toBe(true);
      // the database keeps only the token's hash
      const stored = await t.ctx.db.selectFrom('sign_in_tokens').select('token_hash').where('token_hash', '=', hashToken(tokenOf(link))).executeTakeFirst();
      expect(stored).toBeDefined();
      const raw = await t.ctx.db.selectFrom('sign_in_tokens').select('token_hash').where('token_hash', '=', tokenOf(link)).executeTakeFirst();
      expect(raw).toBeUndefined();
      expect(tokenOf(link).length).toBeGreaterThanOrEqual(43); // 256 bits, base64url
    });
  });

  describe('POST /api/shopify/check-customer', () => {
    test('a customer exists, with the shop id', async () => {
      const res = await t.request('POST', '/api/shopify/check-customer', { body: { email: 'Asha.Rao@Example.com' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ exists: true, shopifyId: '7301001001' });
    });
    test('a stranger is 404 with the not-in-shop message', async () => {
      const res = await t.request('POST', '/api/shopify/check-customer', { body: { email: 'stranger@example.com' } });
      expect(res.status).toBe(404);
      expect(res.body.exists).toBe(false);
      expect(res.body.error).toBe('Email "stranger@example.com" not found in Shopify database. Only existing Shopify customers can login.');
    });
  });

  describe('POST /api/auth/verify-email', () => {
    test("without the saved email it says 'No email found. Please try signing in again.'", async () => {
      const res = await t.request('POST', '/api/auth/verify-email', { body: { token: 'whatever' } });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('No email found. Please try signing in again.');
      expect(res.body.error).toBe('No email found. Please try signing in again.');
      expect(res.body.success).toBe(false);
    });

    test('the link opens a session once; a second use says it was already used', async () => {
      await t.request('POST', '/api/auth/login', { body: { email: CUSTOMER } });
      const token = tokenOf(await t.lastSignInLink(CUSTOMER));
      const first = await t.request('POST', '/api/auth/verify-email', { body: { email: CUSTOMER, token } });
      expect(first.status).toBe(200);
      expect(first.body.success).toBe(true);
      expect(first.body.message).toBe(`Welcome back! Account found for ${CUSTOMER}. Redirecting to dashboard...`);
      expect(first.body.user).toMatchObject({ email: CUSTOMER, name: 'Asha Rao', isAdmin: false });
      expect(typeof first.body.sessionToken).toBe('string');
      const expiresIn = new Date(first.body.expiresAt).getTime() - Date.now();
      expect(expiresIn).toBeGreaterThan(23.9 * 3600_000);
      expect(expiresIn).toBeLessThanOrEqual(24 * 3600_000);
      const cookie = first.headers.get('set-cookie')!;
      expect(cookie).toContain('sp_session=');
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Lax');

      const second = await t.request('POST', '/api/auth/verify-email', { body: { email: CUSTOMER, token } });
      expect(second.status).toBe(410);
      expect(second.body).toMatchObject({ success: false, message: 'This sign-in link has already been used. Please request a new one.' });
    });

    test('an expired link is refused', async () => {
      await t.request('POST', '/api/auth/login', { body: { email: CUSTOMER } });
      const token = tokenOf(await t.lastSignInLink(CUSTOMER));
      // ten minutes pass: move the link's whole life into the past
      await sql`update sign_in_tokens set created_at = now() - interval '11 minutes', expires_at = now() - interval '1 minute'
        where token_hash = ${hashToken(token)}`.execute(t.ctx.db);
      const res = await t.request('POST', '/api/auth/verify-email', { body: { email: CUSTOMER, token } });
      expect(res.status).toBe(410);
      expect(res.body.message).toBe('This sign-in link has expired. Please request a new one.');
    });

    test('a link used with another email, or a made-up token, is refused', async () => {
      await addCustomer(t.ctx.db, { email: 'meera.iyer@example.com' });
      await t.request('POST', '/api/auth/login', { body: { email: CUSTOMER } });
      const token = tokenOf(await t.lastSignInLink(CUSTOMER));
      const wrongEmail = await t.request('POST', '/api/auth/verify-email', { body: { email: 'meera.iyer@example.com', token } });
      expect(wrongEmail.status).toBe(400);
      expect(wrongEmail.body.success).toBe(false);
      const madeUp = await t.request('POST', '/api/auth/verify-email', { body: { email: CUSTOMER, token: 'x'.repeat(43) } });
      expect(madeUp.status).toBe(400);
      // the real link still works for its own email
      const ok = await t.request('POST', '/api/auth/verify-email', { body: { email: CUSTOMER, token } });
      expect(ok.status).toBe(200);
    });

    test('the link returns to the page the visitor first asked for, and only to a page of this site', async () => {
      await t.request('POST', '/api/auth/login', { body: { email: CUSTOMER, next: '/exchange/new' } });
      let token = tokenOf(await t.lastSignInLink(CUSTOMER));
      let res = await t.request('POST', '/api/auth/verify-email', { body: { email: CUSTOMER, token } });
      expect(res.body.next).toBe('/exchange/new');
      for (const next of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
        await t.request('POST', '/api/auth/login', { body: { email: CUSTOMER, next } });
        token = tokenOf(await t.lastSignInLink(CUSTOMER));
        res = await t.request('POST', '/api/auth/verify-email', { body: { email: CUSTOMER, token } });
        expect(res.body.next).toBe('/dashboard');
      }
    });
  });

  describe('sessions', () => {
    test('GET /api/auth/profile returns the user for a bearer token and for the cookie', async () => {
      const token = await t.signIn(CUSTOMER);
      const bearer = await t.request('GET', '/api/auth/profile', { token });
      expect(bearer.status).toBe(200);
      expect(bearer.body).toMatchObject({ email: CUSTOMER, name: 'Asha Rao', isAdmin: false });
      expect(typeof bearer.body.uid).toBe('string');
      const cookie = await t.request('GET', '/api/auth/profile', { headers: { cookie: `sp_session=${token}` } });
      expect(cookie.status).toBe(200);
    });

    test('no token is 401 asking to sign in', async () => {
      const res = await t.request('GET', '/api/auth/profile');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Please sign in to continue.' });
    });

    test('a tampered, foreign-key or expired JWT is refused', async () => {
      const token = await t.signIn(CUSTOMER);
      const [header, payload, signature] = token.split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      const forged = Buffer.from(JSON.stringify({ ...claims, admin: true, sub: crypto.randomUUID() })).toString('base64url');
      expect(await profileAnswer(t, `${header}.${forged}.${signature}`)).toEqual(SESSION_ENDED_401);
      // alg "none" is never accepted
      const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
      expect(await profileAnswer(t, none)).toEqual(SESSION_ENDED_401);
      // signed with another secret
      const { SignJWT } = await import('jose');
      const other = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('another-secret-another-secret-another'));
      expect(await profileAnswer(t, other)).toEqual(SESSION_ENDED_401);
      // expired
      const secret = new TextEncoder().encode(t.ctx.settings.jwtSecret);
      const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 }).setProtectedHeader({ alg: 'HS256' }).sign(secret);
      expect(await profileAnswer(t, expired)).toEqual(SESSION_ENDED_401);
      // a valid signature over a session that does not exist
      const ghost = await new SignJWT({ ...claims, sid: crypto.randomUUID() }).setProtectedHeader({ alg: 'HS256' }).sign(secret);
      expect(await profileAnswer(t, ghost)).toEqual(SESSION_ENDED_401);
    });

    test('logout revokes the session at once and clears the cookie', async () => {
      const token = await t.signIn(CUSTOMER);
      const out = await t.request('POST', '/api/auth/logout', { token });
      expect(out.status).toBe(200);
      expect(out.headers.get('set-cookie')).toContain('sp_session=;');
      expect(await profileAnswer(t, token)).toEqual(SESSION_ENDED_401);
    });

    test('a session expired in the database is refused even though its JWT is still valid', async () => {
      const token = await t.signIn(CUSTOMER);
      const sid = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid;
      await sql`update sessions set created_at = now() - interval '25 hours', expires_at = now() - interval '1 hour' where id = ${sid}`.execute(t.ctx.db);
      expect(await profileAnswer(t, token)).toEqual(SESSION_ENDED_401);
    });

    test('a cookie-authenticated change from another site is refused; the same site is allowed', async () => {
      const token = await t.signIn(CUSTOMER);
      const cookie = `sp_session=${token}`;
      const crossSite: Record<string, string>[] = [
        { cookie, origin: 'https://evil.example' },
        { cookie, 'sec-fetch-site': 'cross-site' },
        { cookie, origin: 'null' },
      ];
      for (const headers of crossSite) {
        const cross = await t.request('POST', '/api/auth/logout', { headers });
        expect(cross.status).toBe(403);
        expect(cross.body.error).toBe('This request came from another site and was refused.');
      }
      expect((await t.request('GET', '/api/auth/profile', { token })).status).toBe(200);
      const same = await t.request('POST', '/api/auth/logout', { headers: { cookie, origin: TEST_ORIGIN, 'sec-fetch-site': 'same-origin' } });
      expect(same.status).toBe(200);
      expect(await profileAnswer(t, token)).toEqual(SESSION_ENDED_401);
    });
  });

});

describe.each(databaseKinds())('rate limits (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { SIGNIN_LIMIT_PER_IP: '3', SIGNIN_LIMIT_PER_EMAIL: '2' });
  });
  afterAll(() => t.close());

  test('past SIGNIN_LIMIT_PER_EMAIL links from one address the answer is the same 202, but no more mail goes out', async () => {
    const email = 'kiran.patel@example.com';
    await addCustomer(t.ctx.db, { email });
    const mails = async () => (await t.ctx.db.selectFrom('mail_outbox').select('id').where('to_email', '=', email).execute()).length;
    const from = (ip: string) => ({ 'x-swappoints-client-ip': ip });
    const accepted = { sent: true, email, message: `Account found for ${email}. We've emailed you a sign-in link.` };
    for (let i = 0; i < 2; i++) {
      const res = await t.request('POST', '/api/auth/login', { body: { email }, headers: from('192.0.2.1') });
      expect([res.status, res.body]).toEqual([202, accepted]);
    }
    expect(await mails()).toBe(2);
    const quiet = await t.request('POST', '/api/auth/login', { body: { email }, headers: from('192.0.2.1') });
    expect([quiet.status, quiet.body]).toEqual([202, accepted]);
    expect(await mails()).toBe(2);
    expect(await t.ctx.db.selectFrom('sign_in_tokens').select('id').where('email', '=', email).execute()).toHaveLength(2);
  });

  test('someone asking for a customer\'s link from many addresses cannot lock the customer out', async () => {
    const email = 'meera.iyer@example.com';
    await addCustomer(t.ctx.db, { email });
    for (let i = 0; i < 6; i++) {
      for (let n = 0; n < 3; n++) await t.request('POST', '/api/auth/login', { body: { email }, headers: { 'x-swappoints-client-ip': `203.0.113.${i}` } });
    }
    const before = await t.ctx.db.selectFrom('mail_outbox').select('id').where('to_email', '=', email).execute();
    const own = await t.request('POST', '/api/auth/login', { body: { email }, headers: { 'x-swappoints-client-ip': '198.51.100.200' } });
    expect(own.status).toBe(202);
    const after = await t.ctx.db.selectFrom('mail_outbox').select('id').where('to_email', '=', email).execute();
    expect(after.length).toBe(before.length + 1);
  });

  test('one address asking for many emails is stopped; another address is not', async () => {
    const from = (ip: string) => ({ 'x-swappoints-client-ip': ip });
    for (let i = 0; i < 3; i++) {
      const res = await t.request('POST', '/api/auth/login', { body: { email: `stranger${i}@example.com` }, headers: from('203.0.113.9') });
      expect(res.status).toBe(422);
    }
    const limited = await t.request('POST', '/api/auth/login', { body: { email: 'stranger9@example.com' }, headers: from('203.0.113.9') });
    expect(limited.status).toBe(429);
    const other = await t.request('POST', '/api/auth/login', { body: { email: 'stranger9@example.com' }, headers: from('198.51.100.7') });
    expect(other.status).toBe(422);
  });

  test('the window starts at an address\'s first try and lasts 15 minutes, whatever the clock says; Retry-After is what is left of it', async () => {
    const ip = '203.0.113.77';
    const key = `signin:ip:${ip}`;
    const ask = () => t.request('POST', '/api/auth/login', { body: { email: 'stranger@example.com' }, headers: { 'x-swappoints-client-ip': ip } });
    // the server's clock, as the server reads it (the database's now() has microseconds it has not)
    const startWindowAgo = (seconds: number) =>
      t.ctx.db.updateTable('rate_limits').set({ window_start: new Date(Date.now() - seconds * 1000) }).where('key', '=', key).execute();
    for (let i = 0; i < 3; i++) expect((await ask()).status).toBe(422);
    // 14 minutes into the window: still refused, with about a minute to wait
    await startWindowAgo(14 * 60);
    const late = await ask();
    expect(late.status).toBe(429);
    expect(Number(late.headers.get('retry-after'))).toBeWithin(55, 61);
    expect(late.body.error).toBe('Too many sign-in attempts. Please wait 1 minute and try again.');
    // the window is over: the next try is the first of a new one, and two more follow it
    await startWindowAgo(15 * 60);
    for (let i = 0; i < 3; i++) expect((await ask()).status).toBe(422);
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeWithin(890, 901);
    expect(refused.body.error).toBe('Too many sign-in attempts. Please wait 15 minutes and try again.');
    const rows = await t.ctx.db.selectFrom('rate_limits').select('hits').where('key', '=', key).execute();
    expect(rows).toEqual([{ hits: 4 }]);
  });
});

describe.each(databaseKinds())('revoking (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  test('`sessions revoke` ends every session of a user at once', async () => {
    const { revokeSessionsOf } = await import('#api/modules/auth/sessions.ts');
    const a = await t.signIn('zoe.dsouza@example.com');
    const b = await t.signIn('zoe.dsouza@example.com');
    expect(await revokeSessionsOf(t.ctx.db, 'ZOE.DSOUZA@example.com')).toBe(2);
    expect(await profileAnswer(t, a)).toEqual(SESSION_ENDED_401);
    expect(await profileAnswer(t, b)).toEqual(SESSION_ENDED_401);
  });

  test('granting and revoking admin shows in the profile on the next request, without signing in again', async () => {
    const { grantAdmin, revokeAdmin } = await import('#api/modules/users/service.ts');
    const token = await t.signIn('meera.iyer@example.com');
    expect((await t.request('GET', '/api/auth/profile', { token })).body.isAdmin).toBe(false);
    await grantAdmin(t.ctx.db, 'meera.iyer@example.com');
    expect((await t.request('GET', '/api/auth/profile', { token })).body.isAdmin).toBe(true);
    await revokeAdmin(t.ctx.db, 'meera.iyer@example.com');
    expect((await t.request('GET', '/api/auth/profile', { token })).body.isAdmin).toBe(false);
  });

  test('an admin granted by the CLI signs in without being a shop customer', async () => {
    const { grantAdmin } = await import('#api/modules/users/service.ts');
    await grantAdmin(t.ctx.db, 'ops@myshop.example');
    expect((await t.request('POST', '/api/auth/login', { body: { email: 'ops@myshop.example' } })).status).toBe(202);
    const token = new URL(await t.lastSignInLink('ops@myshop.example')).searchParams.get('token');
    const verify = await t.request('POST', '/api/auth/verify-email', { body: { email: 'ops@myshop.example', token } });
    expect(verify.status).toBe(200);
    expect(verify.body.user.isAdmin).toBe(true);
  });
});
