import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { connectPGlite, connectPostgres } from '#api/db/connect.ts';
import { tryAcquireLock } from '#api/db/embedded-lock.ts';
import { contentTypeOfKey, createImageStore, type ImageStore } from '#api/integrations/images/index.ts';
import { AppError } from '#api/lib/errors.ts';
import { createLogger } from '#api/lib/log.ts';
import { ensureDataDir, type Settings } from '#api/settings.ts';
import { DATABASE_FILE, MEDIA_PREFIX, readManifest, type BackupManifest } from './archive.ts';
import { latestMigration, pgRestore } from './database.ts';

export interface RestoreReport {
  database: BackupManifest['database'];
  migration: string | null;
  createdAt: string;
  images: number;
  /** files under media/ that are not image store keys, left out */
  skipped: number;
}

const notEmpty = (what: string) =>
  new AppError(409, `${what} is not empty. Restore into an empty one, or pass --force to replace what it holds with the backup.`);

async function storedKeys(images: ImageStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const { key } of images.list()) keys.push(key);
  return keys;
}

/** The embedded database in DATA_DIR, refilled from PGlite's tarball; the server must be stopped. */
async function restoreEmbedded(settings: Settings, dump: Blob, migration: string | null, force: boolean, clearImages: () => Promise<void>): Promise<void> {
  const lock = tryAcquireLock(settings.dataDir, { role: 'cli' });
  if (!lock.acquired) {
    throw new AppError(409, `${lock.holder.role === 'server' ? 'The SwapPoints server' : 'Another swappoints command'} (pid ${lock.holder.pid}) is using ${settings.dataDir}: stop it before restoring.`);
  }
  try {
    const pgdata = join(settings.dataDir, 'pgdata');
    if (existsSync(join(pgdata, 'PG_VERSION'))) {
      if (!force) throw notEmpty(`DATA_DIR ${settings.dataDir} holds a database, so it`);
    }
    await clearImages();
    rmSync(pgdata, { recursive: true, force: true });
    ensureDataDir(settings.dataDir);
    // PGlite's tarball holds the data directory's files by their paths inside it: unpacked in
    // place, then opened once to prove it is a database of the backup's migration.
    await new Bun.Archive(await dump.bytes()).extract(pgdata);
    const handle = await connectPGlite(pgdata);
    try {
      const found = await latestMigration(handle.db);
      if (found !== migration) throw new AppError(500, `The restored database reads as migration ${found ?? 'none'}, the backup says ${migration ?? 'none'}: the archive is damaged.`);
    } finally {
      await handle.close();
    }
  } finally {
    lock.release();
  }
}

/** The PostgreSQL database at DATABASE_URL, filled by pg_restore; with force, its public schema is emptied first. */
async function restorePostgres(url: string, dump: Uint8Array, force: boolean, clearImages: () => Promise<void>): Promise<void> {
  const handle = connectPostgres(url, createLogger('error'), 1);
  try {
    const { rows } = await sql<{ tables: number }>`select count(*)::int as tables from information_schema.tables where table_schema = 'public'`.execute(handle.db);
    if (rows[0]!.tables > 0) {
      if (!force) throw notEmpty(`The database at DATABASE_URL holds ${rows[0]!.tables} tables, so it`);
      await sql`drop schema public cascade`.execute(handle.db);
      await sql`create schema public`.execute(handle.db);
    }
  } finally {
    await handle.close();
  }
  await clearImages();
  await pgRestore(url, dump);
}

/**
 * Restores a backup (service.ts) into the database and image store the settings name, which
 * must be empty unless `force`: then what they hold is replaced.
 */
export async function restoreBackup(
  settings: Settings,
  archive: Uint8Array,
  options: { force: boolean; onProgress?: (done: number, total: number) => void },
): Promise<RestoreReport> {
  let files: Map<string, File>;
  try {
    files = await new Bun.Archive(archive).files();
  } catch {
    throw new AppError(400, 'The file is not a SwapPoints backup: it cannot be read as a tar archive.');
  }
  const manifest = await readManifest(files);
  if (typeof manifest === 'string') throw new AppError(400, `The file is not a usable SwapPoints backup: ${manifest}.`);
  const target = settings.databaseUrl ? 'postgres' : 'embedded';
  if (manifest.database !== target) {
    throw new AppError(
      400,
      manifest.database === 'embedded'
        ? 'This backup is of the embedded database: restore it with DATABASE_URL unset (into an empty DATA_DIR).'
        : 'This backup is of a PostgreSQL database: restore it with DATABASE_URL set to an empty database.',
    );
  }

  const images = createImageStore(settings);
  const present = await storedKeys(images);
  if (present.length > 0 && !options.force) throw notEmpty(`The image store (${images.kind === 'local' ? settings.mediaDir : 'S3_BUCKET'}) holds ${present.length} files, so it`);
  const clearImages = () => images.delete(present);

  const dump = files.get(DATABASE_FILE[manifest.database])!;
  if (target === 'embedded') await restoreEmbedded(settings, dump, manifest.migration, options.force, clearImages);
  else await restorePostgres(settings.databaseUrl!, await dump.bytes(), options.force, clearImages);

  const media = [...files.keys()].filter((name) => name.startsWith(MEDIA_PREFIX));
  let restored = 0;
  let skipped = 0;
  for (const name of media) {
    const key = name.slice(MEDIA_PREFIX.length);
    const type = contentTypeOfKey(key);
    if (type) {
      await images.put(key, await files.get(name)!.bytes(), type);
      restored++;
    } else skipped++;
    options.onProgress?.(restored + skipped, media.length);
  }
  return { database: manifest.database, migration: manifest.migration, createdAt: manifest.createdAt, images: restored, skipped };
}
