import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { postgresMigrated } from '#api/db/connect.ts';
import type { Logger } from '#api/lib/log.ts';
import type { Settings } from '#api/settings.ts';

const CLI = fileURLToPath(new URL('./index.ts', import.meta.url));

/**
 * Whether the server is about to create its database: an embedded DATA_DIR with no database in it,
 * or a PostgreSQL database never migrated. That is a first start (`bun run start` from a clean clone).
 */
export async function isFirstStart(settings: Settings): Promise<boolean> {
  if (settings.databaseUrl) return (await postgresMigrated(settings.databaseUrl)) === false;
  return !existsSync(join(settings.dataDir, 'pgdata', 'PG_VERSION'));
}

/**
 * Creates the database and loads the demo shop in a short-lived `swappoints demo seed --if-empty`
 * process, before the server opens the database (the embedded one's lock is released when that
 * process exits). Seeding runs the request workflow and decodes the demo's photos with sharp: in the
 * server, that code and its heap stayed in the serving process for good (about 40 MB, bench:memory).
 * Only on a first start: a database that exists already (a restart, the tests' migrated copies) is
 * checked and seeded in the server, which saves every such start a process.
 */
export async function seedDemoInChild(settings: Settings, log: Logger): Promise<void> {
  const child = Bun.spawn([process.execPath, CLI, 'demo', 'seed', '--if-empty', '--json'], {
    // the port and address the server really has, for the links the demo's mails hold
    env: { ...process.env, DATA_DIR: settings.dataDir, PORT: String(settings.port), PUBLIC_URL: settings.publicUrl },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'inherit',
  });
  const [output, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  if (code !== 0) throw new Error(`Loading the demo shop failed: \`swappoints demo seed\` exited with ${code}.`);
  const { seeded, ...report } = JSON.parse(output) as { seeded: boolean };
  const peakRssMb = Math.round((child.resourceUsage()?.maxRSS ?? 0) / 1024 / 1024);
  if (seeded) log.info('demo shop loaded into the empty database', { ...report, by: 'a seeding process', pid: child.pid, peakRssMb });
}
