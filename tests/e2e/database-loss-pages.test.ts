import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { SESSION_COOKIE } from '#api/modules/auth/plugin.ts';
import { createPostgresDatabase } from '#tests/helpers/db.ts';
import { startServer, type RunningServer } from '#tests/helpers/server.ts';
import { startTcpProxy, type TcpProxy } from '#tests/helpers/tcp-proxy.ts';

setDefaultTimeout(120_000);

/**
 * The built server on PostgreSQL through a TCP proxy the test cuts: pages answer with the error
 * screen (503), the API with a JSON error (503), and both recover by themselves when it is restored.
 */
describe.skipIf(!process.env.DATABASE_URL)('pages while the database is cut (built server, postgres)', () => {
  let proxy: TcpProxy;
  let server: RunningServer;
  let dropDatabase: () => Promise<void>;
  let token: string;
  const email = `cut.${process.pid}@example.com`;

  beforeAll(async () => {
    const target = new URL(process.env.DATABASE_URL!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const database = await createPostgresDatabase();
    dropDatabase = database.drop;
    const via = new URL(database.url);
    via.hostname = '127.0.0.1';
    via.port = String(proxy.port);
    // a short wait for the database (DB_UNAVAILABLE_WAIT_MS): these cuts last, and the pages must say so soon
    server = await startServer({ DATABASE_URL: via.toString(), SUPPORT_EMAIL: 'help@swappoints.example', DB_UNAVAILABLE_WAIT_MS: '300' });
    const added = await server.cli('customers', 'add', email);
    expect(added.code).toBe(0);
    token = await server.apiSignIn(email);
  });
  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
    await dropDatabase?.();
  });

  const page = (path: string) => fetch(`${server.url}${path}`, { headers: { cookie: `${SESSION_COOKIE}=${token}` }, redirect: 'manual' });

  test('the dashboard shows the Connection Error screen with a 503 while cut, and itself again once restored', async () => {
    expect((await page('/dashboard')).status).toBe(200);

    proxy.cut();
    const down = await page('/dashboard');
    const html = await down.text();
    expect(down.status).toBe(503);
    expect(down.headers.get('content-type')).toContain('text/html');
    expect(html).toContain('data-testid="error-screen"');
    expect(html).toContain('Connection Error');
    expect(html).toContain('The service is briefly unavailable. Please try again in a moment.');
    expect(html).toContain('mailto:help@swappoints.example');
    expect(html).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
    const api = await server.api('GET', '/api/exchange', token);
    expect(api).toEqual({ status: 503, body: { error: 'The service is briefly unavailable. Please try again in a moment.' } });

    proxy.restore();
    const up = await page('/dashboard');
    expect(up.status).toBe(200);
    expect(await up.text()).not.toContain('Connection Error');
    expect((await server.api('GET', '/api/exchange', token)).status).toBe(200);
    expect(server.log()).not.toMatch(/Unhandled|uncaught/i);
  });
});
