import { describe, test } from 'bun:test';
import { startServer } from '#tests/helpers/server.ts';
import { expectDemoLoadedBeside } from './first-start-helpers.ts';

/**
 * A first start on PostgreSQL (a database never migrated), as server.test.ts's first start on the
 * embedded database: the demo shop is loaded by a process of its own, whose code never enters the
 * serving one, and none of the libraries loaded at their first use is loaded by starting. Seen from
 * inside the real server process: a preloaded observer lists the modules it has loaded.
 */
describe.if(Boolean(process.env.DATABASE_URL))('a first start on PostgreSQL', () => {
  test('the demo shop (photos included) is loaded by another process; the server holds neither its code nor the libraries loaded at first use', async () => {
    const server = await startServer({ DEMO_REQUESTS: 'true', LOG_LEVEL: 'info' }, { database: 'postgres', firstStart: true, observeModules: true });
    try {
      await expectDemoLoadedBeside(server);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
