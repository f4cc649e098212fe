import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { saveBackup } from '#api/modules/backup/service.ts';
import { restoreBackup } from '#api/modules/backup/restore.ts';
import { jsonLine, progress } from '../format.ts';
import { UsageError } from '../io.ts';
import type { CommandDeps } from '../deps.ts';

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

export function registerBackupCommands(program: Command, { io, session }: CommandDeps) {
  program
    .command('backup')
    .description('Write one consistent archive of the database and the stored images; the server may keep running.')
    .requiredOption('--out <file>', 'the archive to write (a tar file), whole or not at all')
    .option('--json', 'print the summary as JSON')
    .addHelpText(
      'after',
      `
The embedded database is dumped by the running server (or by this command when it is stopped);
PostgreSQL with pg_dump, which must be installed. Restore with \`swappoints restore FILE\`.
The JWT secret in DATA_DIR is not in the archive: after a restore elsewhere people sign in again.

Example:
  $ swappoints backup --out /backups/swappoints-$(date +%F).tar`,
    )
    .action(async (options: { out: string; json?: boolean }) => {
      const ctx = await session.context();
      const file = resolve(io.cwd, options.out);
      const images = progress(io.stderr, 'Images read');
      const report = await saveBackup(ctx, file, (step, done, total) => {
        if (step === 'images') images.update(done, total);
        else if (done === 0 && io.stderr.isTTY) void io.stderr.write(`\nDumping the ${ctx.settings.databaseUrl ? 'PostgreSQL' : 'embedded'} database…\n`);
      });
      images.done();
      if (options.json) await io.stdout.write(jsonLine(report));
      else {
        await io.stdout.write(
          `Backup written to ${report.file} (${megabytes(report.bytes)}): the ${report.database} database at migration ${report.migration ?? 'none'}, ${report.images} images (${megabytes(report.imageBytes)}).\n`,
        );
      }
    });

  program
    .command('restore')
    .description('Restore a backup into an empty DATA_DIR (embedded) or an empty database (DATABASE_URL), with its images.')
    .argument('<file>', 'an archive written by `swappoints backup`')
    .option('--force', 'replace what the database and the image store hold (they are emptied first)')
    .option('--json', 'print the summary as JSON')
    .addHelpText(
      'after',
      `
Stop the server first on the embedded database. Then start it: it migrates a backup of an older
version forward.

Examples:
  $ DATA_DIR=/srv/swappoints-new swappoints restore swappoints-2026-11-25.tar
  $ DATABASE_URL=postgres://app@db/swappoints_new swappoints restore swappoints-2026-11-25.tar --json`,
    )
    .action(async (path: string, options: { force?: boolean; json?: boolean }) => {
      const file = resolve(io.cwd, path);
      if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
      const bar = progress(io.stderr, 'Images restored');
      const report = await restoreBackup(session.settings(), readFileSync(file), { force: Boolean(options.force), onProgress: (done, total) => bar.update(done, total) });
      bar.done();
      if (options.json) await io.stdout.write(jsonLine({ file, ...report }));
      else {
        await io.stdout.write(
          `Restored the ${report.database} database of ${report.createdAt} (migration ${report.migration ?? 'none'}) and ${report.images} images from ${file}.${report.skipped ? ` ${report.skipped} files that are not images were left out.` : ''}\n`,
        );
      }
    });
}
