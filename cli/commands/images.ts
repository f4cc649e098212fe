import type { Command } from 'commander';
import { createLocalImageStore, createS3ImageStore } from '#api/integrations/images/index.ts';
import { copyImageStore } from '#api/modules/images/copy-store.ts';
import { stripStoredMetadata } from '#api/modules/images/strip.ts';
import { backfillVariants } from '#api/modules/images/variants.ts';
import { jsonLine, progress } from '../format.ts';
import { CommandError, UsageError } from '../io.ts';
import type { CommandDeps } from '../deps.ts';

const S3_NEEDED = 'set S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (and S3_ENDPOINT, S3_REGION, S3_PREFIX as the bucket needs) first';

export function registerImageCommands(program: Command, { io, session }: CommandDeps) {
  const images = program.command('images').description('The stored product images (IMAGE_STORE: local disk or an S3-compatible bucket).');

  images
    .command('migrate')
    .description('Copy the local image store (MEDIA_DIR) into the S3 bucket; safe to re-run, it skips what is already there.')
    .requiredOption('--to <store>', 'the store to copy into: s3')
    .option('--json', 'print the summary as JSON')
    .addHelpText(
      'after',
      `
Run it before switching IMAGE_STORE to s3, then once more after the switch to copy uploads
taken in between. Nothing is removed from MEDIA_DIR.

Example:
  $ S3_BUCKET=shop-images S3_ENDPOINT=https://s3.eu-central-1.amazonaws.com S3_REGION=eu-central-1 \\
    S3_ACCESS_KEY_ID=… S3_SECRET_ACCESS_KEY=… swappoints images migrate --to s3`,
    )
    .action(async (options: { to: string; json?: boolean }) => {
      if (options.to !== 's3') throw new UsageError(`--to must be s3, got "${options.to}"`);
      const settings = session.settings();
      if (!settings.s3) throw new UsageError(`no bucket to copy into: ${S3_NEEDED}`);
      const target = createS3ImageStore(settings.s3);
      await target.check();
      const bar = progress(io.stderr, 'Images copied or checked');
      const report = await copyImageStore(createLocalImageStore(settings.mediaDir), target, { onProgress: (done, total) => bar.update(done, total) });
      bar.done();
      if (options.json) await io.stdout.write(jsonLine({ from: settings.mediaDir, to: `s3://${settings.s3.bucket}/${settings.s3.prefix}`, ...report }));
      else {
        await io.stdout.write(
          `${report.copied} copied (${(report.bytesCopied / 1_048_576).toFixed(1)} MB), ${report.skipped} already in the bucket, ${report.failed.length} failed, of ${report.total} in ${settings.mediaDir}.\n`,
        );
        for (const f of report.failed) await io.stdout.write(`  ${f.key}: ${f.error}\n`);
      }
      if (report.failed.length > 0) throw new CommandError(`${report.failed.length} image${report.failed.length === 1 ? '' : 's'} could not be copied; run the command again`);
    });

  images
    .command('variants')
    .description('Make the resized WebP thumbnails (320 and 1280 px) of every stored image that lacks them; safe to re-run.')
    .option('--json', 'print the summary as JSON')
    .addHelpText(
      'after',
      `
New uploads get their thumbnails at once, and an older image gets them the first time a page
shows it; this command makes them all ahead of time.

Example:
  $ swappoints images variants`,
    )
    .action(async (options: { json?: boolean }) => {
      const ctx = await session.context();
      const bar = progress(io.stderr, 'Images checked');
      const report = await backfillVariants(ctx, { onProgress: (done, total) => bar.update(done, total) });
      bar.done();
      if (options.json) await io.stdout.write(jsonLine(report));
      else {
        await io.stdout.write(`${report.made} made, ${report.present} already had them, ${report.failed.length} failed, of ${report.total} images.\n`);
        for (const f of report.failed) await io.stdout.write(`  ${f.publicId}: ${f.error}\n`);
      }
      if (report.failed.length > 0) throw new CommandError(`${report.failed.length} image${report.failed.length === 1 ? '' : 's'} got no thumbnails`);
    });

  images
    .command('strip-metadata')
    .description('Remove EXIF (GPS, owner, camera serial), XMP and IPTC from every stored original, applying its orientation first; safe to re-run.')
    .option('--dry-run', 'only count the images that carry metadata; change nothing')
    .option('--json', 'print the summary as JSON')
    .addHelpText(
      'after',
      `
New uploads are stored without metadata; this cleans the ones stored before. Each image that
still carries metadata is written again under the same address (browsers may keep the old copy
in their cache). Thumbnails never carried any.

Example:
  $ swappoints images strip-metadata --dry-run
  $ swappoints images strip-metadata`,
    )
    .action(async (options: { dryRun?: boolean; json?: boolean }) => {
      const ctx = await session.context();
      const bar = progress(io.stderr, 'Images checked');
      const report = await stripStoredMetadata(ctx, { dryRun: options.dryRun, onProgress: (done, total) => bar.update(done, total) });
      bar.done();
      if (options.json) await io.stdout.write(jsonLine({ dryRun: Boolean(options.dryRun), ...report }));
      else {
        const verb = options.dryRun ? 'would be cleaned' : 'cleaned';
        await io.stdout.write(`${report.cleaned} ${verb}, ${report.clean} already without metadata, ${report.failed.length} failed, of ${report.total} images.\n`);
        for (const f of report.failed) await io.stdout.write(`  ${f.publicId}: ${f.error}\n`);
      }
      if (report.failed.length > 0) throw new CommandError(`${report.failed.length} image${report.failed.length === 1 ? '' : 's'} could not be checked or cleaned`);
    });
}
