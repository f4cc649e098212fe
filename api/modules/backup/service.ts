import type { AppContext } from '#api/context.ts';
import { writeFileAtomically } from '#api/lib/atomic-write.ts';
import { DATABASE_FILE, MANIFEST, MEDIA_PREFIX, type BackupManifest, type BackupReport } from './archive.ts';
import { latestMigration, pgDump } from './database.ts';

export interface BackupProgress {
  (step: 'images' | 'database', done: number, total?: number): void;
}

/** Every image the store holds now, by key, read into `into` (keys already there are kept). */
async function readImages(ctx: AppContext, into: Map<string, Uint8Array>, onProgress?: BackupProgress): Promise<void> {
  const keys: string[] = [];
  for await (const { key } of ctx.images.list()) if (!into.has(key)) keys.push(key);
  let done = 0;
  for (const key of keys) {
    const object = await ctx.images.get(key);
    if (object) into.set(key, await new Response(object.body).bytes()); // removed meanwhile: its row is gone too
    onProgress?.('images', ++done, keys.length);
  }
}

/**
 * One consistent archive of the database and the images, while the server keeps serving.
 * Images are written before the rows that name them and removed after, so: the images are read
 * first, then the database is dumped in one snapshot (pg_dump; PGlite between two queries), then
 * the images that came meanwhile are read too. Every image a dumped row names is then in the
 * archive (one uploaded and removed again in the moment between the dump and the second read is
 * the exception, and its row is removed in the same moment).
 */
export async function createBackup(ctx: AppContext, onProgress?: BackupProgress): Promise<{ archive: Uint8Array; manifest: BackupManifest }> {
  const images = new Map<string, Uint8Array>();
  await readImages(ctx, images, onProgress);
  onProgress?.('database', 0);
  const database = ctx.settings.databaseUrl ? 'postgres' : 'embedded';
  const migration = await latestMigration(ctx.db);
  let dump: Uint8Array;
  if (database === 'postgres') dump = await pgDump(ctx.settings.databaseUrl!);
  else if (ctx.dumpDataDir) dump = await (await ctx.dumpDataDir()).bytes();
  else throw new Error('the embedded database cannot be dumped from this context');
  onProgress?.('database', 1, 1);
  await readImages(ctx, images, onProgress);

  const manifest: BackupManifest = {
    format: 'swappoints-backup',
    version: 1,
    createdAt: new Date().toISOString(),
    database,
    migration,
    images: images.size,
    imageBytes: [...images.values()].reduce((sum, b) => sum + b.byteLength, 0),
  };
  const files: Record<string, Uint8Array | string> = { [MANIFEST]: `${JSON.stringify(manifest, null, 2)}\n`, [DATABASE_FILE[database]]: dump };
  for (const [key, bytes] of images) files[`${MEDIA_PREFIX}${key}`] = bytes;
  return { archive: await new Bun.Archive(files).bytes(), manifest };
}

/** A backup written to `file` whole or not at all. */
export async function saveBackup(ctx: AppContext, file: string, onProgress?: BackupProgress): Promise<BackupReport> {
  const { archive, manifest } = await createBackup(ctx, onProgress);
  await writeFileAtomically(file, archive);
  return { ...manifest, file, bytes: archive.byteLength };
}
