import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sql } from 'kysely';
import { addCustomer } from '#api/modules/customers/service.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';

const CUSTOMER = 'asha.rao@example.com';
const sessionIdOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid as string;

describe.each(databaseKinds())('session cookie and idle timeout (%s)', (kind) => {
  let http: TestApp;
  let https: TestApp;
  beforeAll(async () => {
    http = await createTestApp(kind);
    // the same database (and customer) under a public https address
    https = await createTestApp(kind, { PUBLIC_URL: 'https://swap.example.com', MAIL_LOG_LINKS_IN_PRODUCTION: 'true' }, { sameDatabaseAs: http });
    await addCustomer(http.ctx.db, { email: CUSTOMER });
  });
  afterAll(async () => {
    await https.close();
    await http.close();
  });

  async function verifyResponse(t: TestApp, origin: string) {
    await t.request('POST', '/api/auth/login', { body: { email: CUSTOMER } });
    const token = new URL(await t.lastSignInLink(CUSTOMER)).searchParams.get('token');
    return t.request('POST', '/api/auth/verify-email', { body: { email: CUSTOMER, token }, headers: { origin } });
  }

  test('on https the session cookie is __Host- prefixed, Secure, Path=/ and host-only; only that name signs in', async () => {
    const res = await verifyResponse(https, 'https://swap.example.com');
    expect(res.status).toBe(200);
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie.startsWith(`__Host-sp_session=${res.body.sessionToken};`)).toBe(true);
    expect(cookie).toContain('Secure');
    expect(cookie).toContain('Path=/');
    expect(cookie).not.toContain('Domain=');
    const token = res.body.sessionToken as string;
    expect((await https.request('GET', '/api/auth/profile', { headers: { cookie: `__Host-sp_session=${token}` } })).status).toBe(200);
    expect((await https.request('GET', '/api/auth/profile', { headers: { cookie: `sp_session=${token}` } })).status).toBe(401);
    const out = await https.request('POST', '/api/auth/logout', { headers: { cookie: `__Host-sp_session=${token}`, origin: 'https://swap.example.com' } });
    expect(out.headers.get('set-cookie')).toStartWith('__Host-sp_session=;');
  });

  test('on plain http (local use) the cookie keeps its plain name, without Secure', async () => {
    const res = await verifyResponse(http, 'http://localhost:3000');
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie.startsWith('sp_session=')).toBe(true);
    expect(cookie).not.toContain('Secure');
  });

  test('a session unused for SESSION_IDLE_HOURS (8) ends, though its absolute expiry is still ahead', async () => {
    expect(http.ctx.settings.sessionIdleHours).toBe(8);
    const token = await http.signIn(CUSTOMER);
    const sid = sessionIdOf(token);
    await sql`update sessions set last_seen_at = now() - interval '7 hours 50 minutes' where id = ${sid}`.execute(http.ctx.db);
    expect((await http.request('GET', '/api/auth/profile', { token })).status).toBe(200);
    // that request counted as use: the idle clock starts again
    const seen = await http.ctx.db.selectFrom('sessions').select('last_seen_at').where('id', '=', sid).executeTakeFirstOrThrow();
    expect(Date.now() - seen.last_seen_at.getTime()).toBeLessThan(60_000);

    await sql`update sessions set last_seen_at = now() - interval '8 hours 1 minute' where id = ${sid}`.execute(http.ctx.db);
    const idle = await http.request('GET', '/api/auth/profile', { token });
    expect(idle.status).toBe(401);
    expect(idle.body.error).toBe('Your session has ended. Please sign in again.');
  });

  test("a session's last use is written at most once a minute: not a write per request", async () => {
    const token = await http.signIn(CUSTOMER);
    const sid = sessionIdOf(token);
    const lastSeen = async () => (await http.ctx.db.selectFrom('sessions').select('last_seen_at').where('id', '=', sid).executeTakeFirstOrThrow()).last_seen_at.getTime();
    await sql`update sessions set last_seen_at = now() - interval '30 seconds' where id = ${sid}`.execute(http.ctx.db);
    const recent = await lastSeen();
    for (let i = 0; i < 3; i++) expect((await http.request('GET', '/api/auth/profile', { token })).status).toBe(200);
    expect(await lastSeen()).toBe(recent);

    await sql`update sessions set last_seen_at = now() - interval '2 minutes' where id = ${sid}`.execute(http.ctx.db);
    const before = await lastSeen();
    // requests of one session arriving together: each is answered, and the row moves to now
    const answers = await Promise.all(Array.from({ length: 4 }, () => http.request('GET', '/api/auth/profile', { token })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const moved = await lastSeen();
    expect(moved - before).toBeGreaterThan(100_000);
    expect(Math.abs(Date.now() - moved)).toBeLessThan(30_000);
  });

  test('SESSION_IDLE_HOURS is checked at start', async () => {
    const { loadSettings } = await import('#api/settings.ts');
    const base = { JWT_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/sp-sessions-settings' };
    expect(loadSettings({ ...base, SESSION_IDLE_HOURS: '2' }).sessionIdleHours).toBe(2);
    expect(() => loadSettings({ ...base, SESSION_IDLE_HOURS: '0' })).toThrow(/SESSION_IDLE_HOURS/);
  });
});
