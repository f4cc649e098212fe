/**
 * A SwapPoints backup is one tar file: a manifest, the database, and the stored images.
 *   swappoints-backup.json    the manifest below
 *   database/pgdata.tar.gz    the embedded database (PGlite's dumpDataDir), or
 *   database/postgres.dump    PostgreSQL's (pg_dump --format=custom)
 *   media/<store key>         every image and variant in the image store
 * The parts are compressed already (gzip, pg_dump's own, image formats), so the tar is not.
 */
export const MANIFEST = 'swappoints-backup.json';
export const DATABASE_FILE = { embedded: 'database/pgdata.tar.gz', postgres: 'database/postgres.dump' } as const;
export const MEDIA_PREFIX = 'media/';

export type DatabaseKind = keyof typeof DATABASE_FILE;

export interface BackupManifest {
  format: 'swappoints-backup';
  version: 1;
  createdAt: string;
  database: DatabaseKind;
  /** the newest migration the database had */
  migration: string | null;
  images: number;
  imageBytes: number;
}

export interface BackupReport extends BackupManifest {
  file: string;
  bytes: number;
}

/** The manifest of an archive's files, or a sentence saying why it is not a SwapPoints backup. */
export async function readManifest(files: Map<string, File>): Promise<BackupManifest | string> {
  const file = files.get(MANIFEST);
  if (!file) return `it has no ${MANIFEST}: not a SwapPoints backup`;
  let manifest: Partial<BackupManifest>;
  try {
    manifest = JSON.parse(await file.text()) as Partial<BackupManifest>;
  } catch {
    return `its ${MANIFEST} is not JSON`;
  }
  if (manifest.format !== 'swappoints-backup' || manifest.version !== 1) return 'it is not a SwapPoints backup of version 1';
  if (manifest.database !== 'embedded' && manifest.database !== 'postgres') return 'its manifest names no database kind';
  if (!files.has(DATABASE_FILE[manifest.database])) return `it lacks ${DATABASE_FILE[manifest.database]}`;
  return manifest as BackupManifest;
}
