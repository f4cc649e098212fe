import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { rmSync } from 'node:fs';
import { startHost, type Host } from '#api/host.ts';
import { createLogger } from '#api/lib/log.ts';
import { sharePageSessions, type PageSessions } from '#api/modules/auth/page-sessions.ts';
import { seedDemo } from '#api/modules/demo/service.ts';
import { loadSettings } from '#api/settings.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/helpers/app.ts';
import { tempDataDir } from '#tests/helpers/cli.ts';
import { createPostgresDatabase, databaseKinds, seedMigratedDataDir } from '#tests/helpers/db.ts';

const CUSTOMER = 'asha.rao@example.com';

describe.each(databaseKinds())('one read of the session for a page render (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  /** An API read as a page makes it in process, with the session cookie; `render` marks it as one of that render's calls. */
  const read = (path: string, token: string, render?: PageSessions) => {
    const request = new Request(`${TEST_ORIGIN}${path}`, { headers: { cookie: `sp_session=${token}`, origin: TEST_ORIGIN } });
    return t.app.handle(render ? sharePageSessions(request, render) : request);
  };

  test("the calls of one render reuse its first read of the session; any other request reads it again", async () => {
    const token = await t.signIn(CUSTOMER);
    const render: PageSessions = new Map();
    expect((await read('/api/auth/profile', token, render)).status).toBe(200);
    // the session ends while the page renders (signed out elsewhere)
    expect((await t.request('POST', '/api/auth/logout', { token })).status).toBe(200);
    // the same render's later call was checked by its first read
    expect((await read('/api/exchange', token, render)).status).toBe(200);
    // every other request reads the session: it has ended
    expect((await read('/api/exchange', token)).status).toBe(401);
    expect((await read('/api/exchange', token, new Map())).status).toBe(401);
  });

  test("a render's shared read belongs to its session: another person's token in the same render is read on its own", async () => {
    const render: PageSessions = new Map();
    const mine = await t.signIn(CUSTOMER);
    const admin = await t.signIn('admin@example.com', { admin: true });
    expect((await read('/api/auth/profile', mine, render)).status).toBe(200);
    const other = await read('/api/auth/profile', admin, render);
    expect(other.status).toBe(200);
    expect(((await other.json()) as { email: string }).email).toBe('admin@example.com');
    expect(render.size).toBe(2);
  });
});

/**
 * The pages' bundle holds a copy of its own of page-sessions.ts, so it cannot mark a request itself:
 * it hands its render's memo to the host (src/lib/api.server.ts), which marks the request with the
 * API's module. Through the host, as a page's in-process call makes it.
 */
describe.each(databaseKinds())("a render's memo handed to host.handleApi (%s)", (kind) => {
  let host: Host;
  let dataDir: string;
  let postgres: { url: string; drop: () => Promise<void> } | undefined;
  beforeAll(async () => {
    dataDir = tempDataDir();
    if (kind === 'postgres') postgres = await createPostgresDatabase({ migrated: true });
    else await seedMigratedDataDir(dataDir);
    const settings = loadSettings({ DATA_DIR: dataDir, DATABASE_URL: postgres?.url, JWT_SECRET: 'x'.repeat(40), PUBLIC_URL: TEST_ORIGIN, DEMO_SEED: 'true', DEMO_REQUESTS: 'false' });
    host = await startHost(settings, { background: false, log: createLogger('silent'), onReady: async (ctx) => void (await seedDemo(ctx)) });
  }, 60_000);
  afterAll(async () => {
    await host.close();
    await postgres?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (method: string, path: string, token: string, render?: PageSessions, body?: unknown) =>
    host.handleApi(
      new Request(`${TEST_ORIGIN}${path}`, {
        method,
        headers: { cookie: `sp_session=${token}`, origin: TEST_ORIGIN, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      render,
    );

  test("the render's later call is answered by its first read of the session; a call without the memo reads it again", async () => {
    const post = (path: string, body: unknown) =>
      host.handleApi(new Request(`${TEST_ORIGIN}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: TEST_ORIGIN }, body: JSON.stringify(body) }));
    expect((await post('/api/auth/login', { email: CUSTOMER })).status).toBe(202);
    const mail = await host.ctx.db.selectFrom('mail_outbox').select('link').where('to_email', '=', CUSTOMER).orderBy('id', 'desc').executeTakeFirstOrThrow();
    const verified = (await (await post('/api/auth/verify-email', { email: CUSTOMER, token: new URL(mail.link!).searchParams.get('token') })).json()) as { sessionToken: string };
    const token = verified.sessionToken;
    const render: PageSessions = new Map();
    expect((await call('GET', '/api/auth/profile', token, render)).status).toBe(200);
    expect(render.size).toBe(1);
    expect((await call('POST', '/api/auth/logout', token)).status).toBe(200);
    expect((await call('GET', '/api/exchange', token, render)).status).toBe(200);
    expect((await call('GET', '/api/exchange', token)).status).toBe(401);
  });
});
