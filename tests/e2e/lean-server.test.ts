import { describe, expect, test } from 'bun:test';
import { databaseKinds } from '#tests/helpers/db.ts';
import { librariesLoadedAtFirstUseIn, serverModulesIn, startServer } from '#tests/helpers/server.ts';

/**
 * What a started server holds (bench:memory): the libraries loaded at their first use (an upload, a
 * label, an export, a mail over SMTP) are not loaded by starting, and on a first start the demo shop
 * is loaded by a process of its own, whose code never enters the serving one. Seen from inside the
 * real server process: a preloaded observer lists the modules it has loaded. (A start on a database
 * that exists, the tests' usual one, is looked at in server.test.ts.)
 */

/** the seeding code; empty.ts is the question every start asks */
const seedingCodeIn = (modules: string[]) => modules.filter((m) => /\/api\/modules\/demo\/(?!empty\.ts$)/.test(m));

describe.each(databaseKinds())('what a started server holds (%s)', (kind) => {
  test('a first start: the demo shop (photos included) is loaded by another process; the server holds neither its code nor the libraries loaded at first use', async () => {
    const server = await startServer({ DEMO_REQUESTS: 'true', LOG_LEVEL: 'info' }, { database: kind, firstStart: true, observeModules: true });
    try {
      const modules = await server.loadedModules();
      expect(serverModulesIn(modules)).toHaveLength(2); // the list is the server's own
      expect(seedingCodeIn(modules)).toEqual([]);
      expect(librariesLoadedAtFirstUseIn(modules)).toEqual([]);

      const loaded = server.log().split('\n').find((line) => line.includes('demo shop loaded into the empty database')) ?? '';
      expect(loaded).toContain('requests=7');
      const seeder = Number(/ pid=(\d+)/.exec(loaded)?.[1]);
      expect(seeder).toBeGreaterThan(0);
      expect(seeder).not.toBe(server.pid);
      // and the shop is there, served by this server
      const admin = await server.apiSignIn('admin@swappoints.demo');
      const queue = await server.api<{ id: number }[]>('GET', '/api/admin/exchange-requests', admin);
      expect(queue.status).toBe(200);
      expect(queue.body).toHaveLength(7);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
