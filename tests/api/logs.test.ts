import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { createEdge } from '#api/http/edge.ts';
import { createLogger } from '#api/lib/log.ts';
import { loadSettings } from '#api/settings.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';

setDefaultTimeout(60_000);

const EMAIL = 'log.reader@example.com';

const parsed = (lines: string[]) => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('LOG_FORMAT', () => {
  test('is text (readable lines) by default, json on request, and nothing else', () => {
    const base = { DATA_DIR: '/tmp/unused', JWT_SECRET: 'x'.repeat(40) };
    expect(loadSettings(base).logFormat).toBe('text');
    expect(loadSettings({ ...base, LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(() => loadSettings({ ...base, LOG_FORMAT: 'xml' })).toThrow('Invalid setting LOG_FORMAT: expected one of text, json, got "xml".');
  });

  test('json: one object per line with time, level and msg; an error carries its stack at error level only', () => {
    const lines: string[] = [];
    const log = createLogger('debug', {}, (line) => lines.push(line), 'json');
    log.info('hello', { count: 3 });
    log.error('it broke', { error: new TypeError('bad thing') });
    log.warn('it wobbled', { error: new Error('small thing') });
    const [info, error, warn] = parsed(lines);
    expect(info).toMatchObject({ level: 'info', msg: 'hello', count: 3 });
    expect(new Date(info!.time as string).toISOString()).toBe(info!.time as string);
    expect(error).toMatchObject({ level: 'error', msg: 'it broke', error: { type: 'TypeError', message: 'bad thing' } });
    expect((error!.error as { stack: string }).stack).toContain('logs.test.ts');
    expect(warn).toMatchObject({ level: 'warn', error: 'small thing' });
  });

  test('text stays one readable line: time LEVEL message key=value', () => {
    const lines: string[] = [];
    createLogger('info', {}, (line) => lines.push(line)).info('hello', { count: 3 });
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z INFO  hello count=3$/);
  });

  test.each(['text', 'json'] as const)('%s: no token, password or secret in any line; emails only at debug', (format) => {
    const lines: string[] = [];
    const log = createLogger('debug', {}, (line) => lines.push(line), format);
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NSJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
    log.info('fields named like secrets', { sessionToken: 'abc-session', password: 'hunter2-pass', jwtSecret: 'sekret-value', authorization: 'Basic QWxhZGRpbg' });
    log.warn('secrets inside values', { header: `Bearer ${jwt}`, url: 'postgres://app:db-pass-123@db.internal:5432/swap', next: '/verify-email?token=sign-in-token-1&x=1' });
    log.error('an error quoting them', { error: new Error(`login failed for ${EMAIL} with ${jwt}`) });
    log.info('an email at info', { to: EMAIL, nested: { who: EMAIL } });
    log.debug('an email at debug', { to: EMAIL });
    const text = lines.join('\n');
    for (const secret of ['abc-session', 'hunter2-pass', 'sekret-value', 'QWxhZGRpbg', jwt, 'db-pass-123', 'sign-in-token-1']) expect(text).not.toContain(secret);
    expect(lines.slice(0, 4).join('\n')).not.toContain(EMAIL);
    expect(lines.slice(0, 4).join('\n')).toContain('l…@example.com');
    expect(lines[4]).toContain(EMAIL);
  });
});

describe.each(databaseKinds())('a JSON-logged walk through the API (%s)', (kind) => {
  let t: TestApp;
  const lines: string[] = [];
  let sessionToken: string;
  let signInToken: string;

  beforeAll(async () => {
    const log = createLogger('info', {}, (line) => lines.push(line), 'json');
    t = await createTestApp(kind, { LOG_LEVEL: 'info', LOG_FORMAT: 'json' }, { log });
    const edge = createEdge({ handleApp: (r) => t.app.handle(r), log, dev: false, https: false, trustProxy: 0 });
    const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      edge(
        new Request(`${TEST_ORIGIN}${path}`, { method, headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, ...headers }, body: body === undefined ? undefined : JSON.stringify(body) }),
        undefined,
        async () => new Response('page'),
      );
    await t.signIn(EMAIL); // makes the customer; its own sign-in goes past the edge
    expect((await send('POST', '/api/auth/login', { email: EMAIL })).status).toBe(202);
    await t.ctx.mailer.flush();
    signInToken = new URL(await t.lastSignInLink(EMAIL)).searchParams.get('token')!;
    const verified = await send('POST', '/api/auth/verify-email', { email: EMAIL, token: signInToken });
    expect(verified.status).toBe(200);
    sessionToken = ((await verified.json()) as { sessionToken: string }).sessionToken;
    expect((await send('GET', '/api/exchange/424242', undefined, { authorization: `Bearer ${sessionToken}` })).status).toBe(404);
    expect((await send('GET', `/api/exchange?q=${encodeURIComponent(EMAIL)}`, undefined, { cookie: `session=${sessionToken}` })).status).toBeLessThan(500);
  });
  afterAll(async () => {
    await t?.close();
  });

  test('every line is one JSON object; each request has its id, route, status and duration', () => {
    const entries = parsed(lines);
    const http = entries.filter((e) => e.msg === 'http');
    expect(http.length).toBe(4);
    for (const e of http) {
      expect(e).toMatchObject({ level: 'info', method: expect.any(String), status: expect.any(Number), durationMs: expect.any(Number) });
      expect(e.requestId).toMatch(/^[\w-]{36}$/);
    }
    expect(http.map((e) => e.route)).toEqual(['/api/auth/login', '/api/auth/verify-email', '/api/exchange/:id', expect.stringMatching(/^\/api\/exchange\/?$/)]);
  });

  test('no session token, sign-in token or email in any line, except the log mail transport\'s link', () => {
    const withToken = lines.filter((l) => l.includes(signInToken));
    expect(parsed(withToken).map((e) => e.msg)).toEqual(expect.arrayContaining(['mail']));
    expect(withToken.every((l) => (JSON.parse(l) as { msg: string }).msg === 'mail')).toBe(true);
    const all = lines.join('\n');
    expect(all).not.toContain(sessionToken);
    expect(all).not.toContain(EMAIL);
    expect(all).not.toContain('log.reader%40example.com');
  });
});
