/**
 * Writes the API's OpenAPI document and a typed client from it (openapi-typescript), for an
 * integrator or a test: `bun scripts/api-client.ts [folder]` (default dist/api-client) writes
 * openapi.json and schema.d.ts there. The document is built in-process over a throwaway embedded database,
 * so no server needs to run; PUBLIC_URL sets its `servers`.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import openapiTS from 'openapi-typescript';
import { createApp } from '#api/app.ts';
import { openContext } from '#api/host.ts';
import { createLogger } from '#api/lib/log.ts';
import { loadSettings } from '#api/settings.ts';

const out = resolve(process.argv[2] ?? 'dist/api-client');
const dataDir = mkdtempSync(join(tmpdir(), 'swappoints-client-'));
try {
  // an embedded database in the throwaway DATA_DIR (never DATABASE_URL's): the build's migrated
  // template when there is one, a few times cheaper than initdb and migrations in memory
  const settings = loadSettings({ ...process.env, DATABASE_URL: undefined, DATA_DIR: dataDir, JWT_SECRET: 'a-throwaway-secret-for-building-the-document', LOG_LEVEL: 'error' });
  const { ctx, close } = await openContext(settings, { role: 'test', log: createLogger('error') });
  try {
    const response = await createApp(ctx).handle(new Request(`${settings.publicUrl}/api/docs/json`));
    const document = await response.json();
    mkdirSync(out, { recursive: true });
    await Bun.write(join(out, 'openapi.json'), `${JSON.stringify(document, null, 2)}\n`);
    await Bun.write(join(out, 'schema.d.ts'), await openapiTS(document));
    console.log(`wrote ${join(out, 'openapi.json')} and ${join(out, 'schema.d.ts')}`);
  } finally {
    await close();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
