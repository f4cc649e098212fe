import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { connectPostgres } from '#api/db/connect.ts';
import { createLogger } from '#api/lib/log.ts';
import { ledgerRow, SHOPIFY_TOKEN, shopifyEnv } from '#tests/helpers/fake-shopify-backend.ts';
import { startFakeShopify, type FakeShopify } from '#tests/helpers/fake-shopify.ts';
import { startServer, type RunningServer } from '#tests/helpers/server.ts';

const SHUTDOWN_TIMEOUT_MS = 2_000;

/** A credit push stalled at the shop must not hold the stop open past SHUTDOWN_TIMEOUT_MS. */
describe.skipIf(!process.env.DATABASE_URL)('stopping under one deadline', () => {
  let fake: FakeShopify;
  let server: RunningServer;
  beforeAll(async () => {
    fake = await startFakeShopify({ token: SHOPIFY_TOKEN });
    server = await startServer(
      {
        ...shopifyEnv(fake),
        SHOPIFY_TIMEOUT_MS: '60000',
        SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
        DEMO_SEED: 'false',
      },
      { database: 'postgres' },
    );
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    fake?.close();
  }, 30_000);

  test('SIGTERM while a background credit push waits on a stalled shop: the process is gone within SHUTDOWN_TIMEOUT_MS, saying so', async () => {
    const email = 'stalled.push@example.com';
    const gid = fake.addCustomer(email);
    fake.inject({ kind: 'slow', delayMs: 60_000 }, 'SwapPointsCredit');
    const database = connectPostgres(server.env.DATABASE_URL!, createLogger('silent'), 1);
    try {
      await ledgerRow(database.db, email, '150', gid);
    } finally {
      await database.close();
    }
    // the credit-push job (every 10 s) picks it up and waits on the shop
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
