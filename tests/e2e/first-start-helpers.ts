import { expect } from 'bun:test';
import { librariesLoadedAtFirstUseIn, seedingCodeIn, serverModulesIn, type RunningServer } from '#tests/helpers/server.ts';

/**
 * A first start's server (started with `firstStart`, `observeModules`, DEMO_REQUESTS and LOG_LEVEL=info)
 * had the demo shop, photos included, loaded by another process: the server holds neither the
 * seeding code nor the libraries loaded at their first use, and serves the shop all the same.
 */
export async function expectDemoLoadedBeside(server: RunningServer) {
  const modules = await server.loadedModules();
  expect(serverModulesIn(modules)).toHaveLength(2); // the list is the server's own
  expect(seedingCodeIn(modules)).toEqual([]);
  expect(librariesLoadedAtFirstUseIn(modules)).toEqual([]);

  const loaded = server.log().split('\n').find((line) => line.includes('demo shop loaded into the empty database')) ?? '';
  expect(loaded).toContain('requests=7');
  const seeder = Number(/ pid=(\d+)/.exec(loaded)?.[1]);
  expect(seeder).toBeGreaterThan(0);
  expect(seeder).not.toBe(server.pid);
  const admin = await server.apiSignIn('admin@swappoints.demo');
  const queue = await server.api<{ id: number }[]>('GET', '/api/admin/exchange-requests', admin);
  expect(queue.status).toBe(200);
  expect(queue.body).toHaveLength(7);
}
