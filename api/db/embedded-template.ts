import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A migrated, empty embedded database made by `bun run build` (scripts/embedded-template.ts), which
 * a new DATA_DIR starts from instead of running PostgreSQL's initdb in the server: initdb alone
 * takes the process to about 870 MB at its peak and leaves it hundreds of MB larger for good.
 * Without a build (waku dev, a bare checkout) there is no template and initdb runs as before; the
 * server migrates either way.
 */
export const EMBEDDED_TEMPLATE = fileURLToPath(new URL('../../dist/embedded-template.tar.gz', import.meta.url));

/**
 * Unpacks the template into `pgdata` when it holds no database yet and a build made one; true when
 * it did. Bun's native unpacking, not PGlite's `loadDataDir`: PGlite unpacks the 43 MB tarball in
 * the JavaScript heap, which put about 150 MB on the server's start-up peak (bench:memory).
 * Unpacked beside and renamed, so a start stopped midway leaves no half database.
 */
export async function unpackTemplate(pgdata: string): Promise<boolean> {
  if (existsSync(join(pgdata, 'PG_VERSION')) || !existsSync(EMBEDDED_TEMPLATE)) return false;
  if (existsSync(pgdata) && readdirSync(pgdata).length > 0) return false; // not ours to replace: PGlite decides
  const part = `${pgdata}.part`;
  rmSync(part, { recursive: true, force: true });
  await new Bun.Archive(await Bun.file(EMBEDDED_TEMPLATE).bytes()).extract(part);
  rmSync(pgdata, { recursive: true, force: true });
  renameSync(part, pgdata);
  return true;
}
