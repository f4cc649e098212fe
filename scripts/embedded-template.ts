/**
 * Part of `bun run build`: makes dist/embedded-template.tar.gz, an empty embedded database already
 * initialised and migrated, so a server on a new DATA_DIR loads it instead of running initdb in its
 * own process (see api/db/embedded-template.ts). Written to a temporary name and renamed, so a build
 * stopped midway leaves no half template.
 */
import { mkdirSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { connectPGlite } from '#api/db/connect.ts';
import { EMBEDDED_TEMPLATE } from '#api/db/embedded-template.ts';
import { migrateToLatest } from '#api/db/migrate.ts';

const started = performance.now();
const handle = await connectPGlite(undefined);
try {
  await migrateToLatest(handle.db);
  const tarball = await handle.dumpDataDir!('gzip');
  mkdirSync(dirname(EMBEDDED_TEMPLATE), { recursive: true });
  await Bun.write(`${EMBEDDED_TEMPLATE}.part`, tarball);
  renameSync(`${EMBEDDED_TEMPLATE}.part`, EMBEDDED_TEMPLATE);
  console.log(`embedded database template: ${(tarball.size / 1_048_576).toFixed(1)} MB in ${Math.round(performance.now() - started)} ms`);
} finally {
  await handle.close();
}
