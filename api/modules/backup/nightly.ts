import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '#api/context.ts';
import { saveBackup } from './service.ts';

const NAME = /^swappoints-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.tar$/;

/** `swappoints-2026-11-25T02-00-00-000Z.tar`: sorts by time, safe on every file system. */
export const backupFileName = (at: Date) => `swappoints-${at.toISOString().replace(/[:.]/g, '-')}.tar`;

/**
 * The nightly backup (BACKUP_DIR): one archive into the folder, then only the BACKUP_KEEP newest
 * of its backups are kept. Files of other names in the folder are left alone.
 */
export async function nightlyBackup(ctx: AppContext): Promise<void> {
  const dir = ctx.settings.backupDir;
  if (!dir) return;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const report = await saveBackup(ctx, join(dir, backupFileName(new Date())));
  const old = readdirSync(dir).filter((name) => NAME.test(name)).sort().reverse().slice(ctx.settings.backupKeep);
  for (const name of old) rmSync(join(dir, name), { force: true });
  ctx.log.info('backup written', { file: report.file, bytes: report.bytes, images: report.images, removed: old.length });
}
