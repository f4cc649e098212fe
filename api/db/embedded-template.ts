import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A migrated, empty embedded database made by `bun run build` (scripts/embedded-template.ts), which
 * a new DATA_DIR starts from instead of running PostgreSQL's initdb in the server: initdb alone
 * takes the process to about 870 MB at its peak and leaves it hundreds of MB larger for good, where
 * loading this tarball peaks near 290 MB (bench:memory). Without a build (waku dev, a bare checkout)
 * there is no template and initdb runs as before; the server migrates either way.
 */
export const EMBEDDED_TEMPLATE = fileURLToPath(new URL('../../dist/embedded-template.tar.gz', import.meta.url));

/** The template as PGlite's `loadDataDir` takes it, when `dataDir` holds no database yet and a build made one. */
export function templateFor(pgdata: string): Blob | undefined {
  if (existsSync(join(pgdata, 'PG_VERSION')) || !existsSync(EMBEDDED_TEMPLATE)) return undefined;
  return new Blob([readFileSync(EMBEDDED_TEMPLATE)]);
}
