import { describe, expect, test } from 'bun:test';
import { databaseKinds } from '#tests/helpers/db.ts';
import { startServer } from '#tests/helpers/server.ts';

/**
 * What a started server holds (bench:memory): the libraries loaded at their first use (an upload, a
 * label, an export, a mail over SMTP) are not loaded by starting, and on a first start the demo shop
 * is loaded by a process of its own, whose code never enters the serving one. Seen from inside the
 * real server process: a preloaded observer lists the modules it has loaded.
 */
const LOADED_AT_FIRST_USE = ['sharp', 'pdf-lib', 'qrcode', 'fflate', 'nodemailer'];
const packagesIn = (modules: string[]) => LOADED_AT_FIRST_USE.filter((name) => modules.some((m) => m.includes(`/node_modules/${name}/`)));
/** the seeding code; empty.ts is the question every start asks */
const seedingCodeIn = (modules: string[]) => modules.filter((m) => /\/api\/modules\/demo\/(?!empty\.ts$)/.test(m));
const ownModules = (modules: string[]) => modules.filter((m) => m.endsWith('/api/host.ts') || m.endsWith('/cli/commands/serve.ts'));

describe.each(databaseKinds())('what a started server holds (%s)', (kind) => {
  test('a first start: the demo shop (photos included) is loaded by another process; the server holds neither its code nor the libraries loaded at first use', async () => {
    const server = await startServer({ DEMO_REQUESTS: 'true', LOG_LEVEL: 'info' }, { database: kind, firstStart: true, observeModules: true });
    try {
      const modules = await server.loadedModules();
      expect(ownModules(modules)).toHaveLength(2); // the list is the server's own
      expect(seedingCodeIn(modules)).toEqual([]);
      expect(packagesIn(modules)).toEqual([]);

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

  test('a start on a database that exists, the demo loaded into it by the server: none of the libraries loaded at first use', async () => {
    const server = await startServer({ LOG_LEVEL: 'info' }, { database: kind, observeModules: true });
    try {
      expect(server.log()).toContain('demo shop loaded into the empty database');
      const modules = await server.loadedModules();
      expect(ownModules(modules)).toHaveLength(2);
      expect(packagesIn(modules)).toEqual([]);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
