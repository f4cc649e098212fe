import type { Command } from 'commander';
import { listAccess } from '#api/modules/access-log/queries.ts';
import { removeExpiredPhotos } from '#api/modules/requests/photo-retention.ts';
import { jsonLine, listOutput } from '../format.ts';
import { parseLimit } from '../io.ts';
import type { CommandDeps } from '../deps.ts';

export function registerPrivacyCommands(program: Command, { io, session }: CommandDeps) {
  const privacy = program
    .command('privacy')
    .description("Customers' personal data: photo retention, and who looked at whose data.");

  privacy
    .command('prune')
    .description('Delete the photos of requests completed or declined more than PHOTO_RETENTION_DAYS ago (the job loop does it hourly); safe to re-run.')
    .option('--dry-run', 'only count the requests and photos that would go; change nothing')
    .option('--json', 'print {requests, photos, dryRun}')
    .addHelpText(
      'after',
      `
Originals and thumbnails leave every image store (local or S3); each request keeps its other
details and says when its photos were removed.

Examples:
  $ swappoints privacy prune --dry-run
  $ PHOTO_RETENTION_DAYS=90 swappoints privacy prune --json`,
    )
    .action(async (options: { dryRun?: boolean; json?: boolean }) => {
      const ctx = await session.context();
      const report = await removeExpiredPhotos(ctx, { dryRun: options.dryRun });
      if (options.json) return void (await io.stdout.write(jsonLine(report)));
      const photos = `${report.photos} photo${report.photos === 1 ? '' : 's'} of ${report.requests} request${report.requests === 1 ? '' : 's'}`;
      const closed = `closed more than ${ctx.settings.photoRetentionDays} days ago`;
      await io.stdout.write(options.dryRun ? `${photos} ${closed} would be deleted.\n` : `Deleted ${photos} ${closed}.\n`);
    });

  privacy
    .command('log')
    .description("Who looked at a customer's personal data (a request's detail, an export, an erasure) and when, newest first; kept one year.")
    .option('--email <email>', 'only what concerns this customer')
    .option('--limit <n>', 'at most N', '100')
    .option('--json', 'print a JSON array of {id, at, actorEmail, action, subjectEmail, requestId}')
    .addHelpText('after', '\nExamples:\n  $ swappoints privacy log --email asha.rao@example.com\n  $ swappoints privacy log --json --limit 1000')
    .action(async (options: { email?: string; limit: string; json?: boolean }) => {
      const limit = parseLimit(options.limit, 10_000);
      const ctx = await session.context();
      const rows = await listAccess(ctx.db, { email: options.email, limit });
      await io.stdout.write(
        listOutput(rows, {
          json: options.json,
          empty: options.email ? `Nobody looked at the data of ${options.email}.` : 'Nobody looked at personal data yet.',
          row: (entry) => entry as unknown as Record<string, unknown>,
          columns: [
            { key: 'at', label: 'WHEN' },
            { key: 'actorEmail', label: 'WHO' },
            { key: 'action', label: 'WHAT' },
            { key: 'subjectEmail', label: 'CUSTOMER' },
            { key: 'requestId', label: 'REQUEST' },
          ],
        }),
      );
    });
}
