import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import pg from 'pg';
import { SESSION_COOKIE } from '#api/modules/auth/plugin.ts';
import { startServer, type RunningServer } from '#tests/helpers/server.ts';

/**
 * The built server's log: a signed-out visitor's redirect to sign-in is not an error and leaves
 * no "Error during rendering" stack; a page that really fails still does. (PostgreSQL: the real
 * failure is a table renamed away under the running server.)
 */

const RENDER_ERROR = 'Error during rendering';

async function logShows(server: RunningServer, text: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!server.log().includes(text)) {
    if (Date.now() > deadline) throw new Error(`the server log never showed '${text}'. It reads:\n${server.log().slice(-3000)}`);
    await Bun.sleep(50);
  }
}

describe.skipIf(!process.env.DATABASE_URL)('what the server logs while rendering pages', () => {
  let server: RunningServer;

  // the server's log is the subject, not a browser: a signed-in visitor's page is its request with the session cookie
  beforeAll(async () => {
    server = await startServer({}, { database: 'postgres' });
  }, 120_000);
  afterAll(() => server?.stop(), 30_000);

  test('redirects of signed-out visitors are not logged as errors; a real render error still is', async () => {
    for (const path of ['/dashboard', '/exchange', '/admin']) {
      const response = await fetch(`${server.url}${path}`, { redirect: 'manual' });
      expect(response.status).toBe(307);
      expect(response.headers.get('location')).toBe(`/email-signin?next=${encodeURIComponent(path)}`);
    }

    // then a page that really fails: its profile cannot be read
    const token = await server.apiSignIn('asha.rao@example.com');
    const signedInPage = (path: string) => fetch(`${server.url}${path}`, { headers: { cookie: `${SESSION_COOKIE}=${token}` }, redirect: 'manual' });
    expect((await signedInPage('/dashboard')).status).toBe(200);
    const db = new pg.Client({ connectionString: server.env.DATABASE_URL });
    await db.connect();
    await db.query('alter table sessions rename to sessions_away');
    try {
      expect((await signedInPage('/dashboard')).status).toBe(500);
      // stderr keeps its order: once this line is there, any redirect's line would be before it
      await logShows(server, 'profile could not be loaded');
    } finally {
      await db.query('alter table sessions_away rename to sessions');
      await db.end();
    }
    expect((await signedInPage('/dashboard')).status).toBe(200);

    const log = server.log();
    expect(log.split(RENDER_ERROR).length - 1).toBeGreaterThanOrEqual(1);
    // Bun prints the redirect as "error: Redirect" with Waku's digest under it
    expect(log).not.toMatch(/error: Redirect/i);
    expect(log).not.toContain('__WAKU_CUSTOM_ERROR__');
    const firstRenderError = log.indexOf(RENDER_ERROR);
    expect(log.slice(firstRenderError, firstRenderError + 400)).toContain('profile could not be loaded');
  }, 120_000);
});
