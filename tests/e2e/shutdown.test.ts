import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { connectPostgres } from '#api/db/connect.ts';
import { createLogger } from '#api/lib/log.ts';
import { LANGUAGE_COOKIE, LANGUAGES } from '#api/modules/users/rules.ts';
import { ledgerRow, SHOPIFY_TOKEN, shopifyEnv } from '#tests/helpers/fake-shopify-backend.ts';
import { startFakeShopify, type FakeShopify } from '#tests/helpers/fake-shopify.ts';
import { createPostgresDatabase } from '#tests/helpers/db.ts';
import { startServer, type RunningServer } from '#tests/helpers/server.ts';

const SHUTDOWN_TIMEOUT_MS = 2_000;

/**
 * Resolves once the server has made its start-up copies of the pages served from memory: each of
 * them answers from its copy (with an ETag). Until then a render may hold its event loop, and a
 * request sent meanwhile may not be read by the time a test sends SIGTERM.
 */
async function startUpWorkDone(url: string): Promise<void> {
  for (const path of ['/email-signin', '/terms', '/privacy']) {
    for (const lang of LANGUAGES) {
      const response = await fetch(`${url}${path}`, { headers: { cookie: `${LANGUAGE_COOKIE}=${lang}` } });
      await response.arrayBuffer();
      if (!response.headers.get('etag')) throw new Error(`${path} (${lang}) is not served from its copy: ${response.status}`);
    }
  }
}

/** A credit push stalled at the shop must not hold the stop open past SHUTDOWN_TIMEOUT_MS. */
describe.skipIf(!process.env.DATABASE_URL)('stopping under one deadline', () => {
  let fake: FakeShopify;
  let database: { url: string; drop: () => Promise<void> };
  let server: RunningServer;
  beforeAll(async () => {
    [fake, database] = await Promise.all([startFakeShopify({ token: SHOPIFY_TOKEN }), createPostgresDatabase({ migrated: true })]);
    // a credit due for its push before the server starts: the credit-push job's first run (a second
    // after the start, not one of its 10-second ticks later) picks it up and waits on the shop
    const email = 'stalled.push@example.com';
    const gid = fake.addCustomer(email);
    fake.inject({ kind: 'slow', delayMs: 60_000 }, 'SwapPointsCredit');
    const connection = connectPostgres(database.url, createLogger('silent'), 1);
    try {
      await ledgerRow(connection.db, email, '150', gid);
    } finally {
      await connection.close();
    }
    server = await startServer({
      ...shopifyEnv(fake),
      DATABASE_URL: database.url,
      SHOPIFY_TIMEOUT_MS: '60000',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      DEMO_SEED: 'false',
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    fake?.close();
  }, 30_000);

  test('SIGTERM while a background credit push waits on a stalled shop: the process is gone within SHUTDOWN_TIMEOUT_MS, saying so', async () => {
    for (let i = 0; i < 150 && !fake.requests.some((r) => r.operation === 'SwapPointsCredit'); i++) await Bun.sleep(100);
    expect(fake.requests.some((r) => r.operation === 'SwapPointsCredit')).toBe(true);

    const started = Date.now();
    void server.stop();
    const code = await server.exited;
    const took = Date.now() - started;
    expect(took).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 2_000);
    expect(code).toBe(1);
    expect(server.log()).toContain(`SwapPoints did not stop within SHUTDOWN_TIMEOUT_MS (${SHUTDOWN_TIMEOUT_MS} ms); exiting with work still running.`);
  }, 60_000);
});

/** `swappoints serve` on SIGTERM: what is in flight is finished, then the process is gone at once. */
describe('stopping when idle or busy', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
    await startUpWorkDone(server.url);
  }, 120_000);
  afterAll(() => server?.stop(), 30_000);

  test('SIGTERM while a request is in flight: it is answered in full, then the process exits (code 0) in under a second, though the client keeps its connection alive', async () => {
    // a sign-in whose body arrives in two parts: the second only after SIGTERM
    const encoder = new TextEncoder();
    const second = Promise.withResolvers<void>();
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(encoder.encode('{"email":'));
        await second.promise;
        controller.enqueue(encoder.encode('"asha.rao@example.com"}'));
        controller.close();
      },
    });
    const answer = fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit);
    const exited = server.exited.then(() => Date.now());
    await Bun.sleep(300);
    void server.stop(); // SIGTERM
    await Bun.sleep(500);
    // it takes no new request meanwhile
    const refused = await fetch(`${server.url}/api/health`).then(
      (r) => `answered ${r.status}`,
      () => 'refused',
    );
    expect(refused).toBe('refused');
    second.resolve();

    const response = await answer;
    expect(response.status).toBe(202);
    expect(await response.json()).toMatchObject({ sent: true, email: 'asha.rao@example.com' });
    const answered = Date.now();
    expect(await server.exited).toBe(0);
    expect((await exited) - answered).toBeLessThan(1_000);
    expect(server.log()).toContain('Stopping SwapPoints…');
  }, 60_000);

  test('SIGTERM when idle: the process exits (code 0) in under a second', async () => {
    const idle = await startServer();
    expect((await fetch(`${idle.url}/api/health`)).status).toBe(200);
    const started = Date.now();
    void idle.stop();
    expect(await idle.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(1_000);
  }, 120_000);
});
