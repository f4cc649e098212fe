import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sharePageSessions, type PageSessions } from '#api/modules/auth/page-sessions.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';

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
