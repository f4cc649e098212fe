import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { listAccess } from '#api/modules/access-log/queries.ts';
import { recordAccess } from '#api/modules/access-log/service.ts';
import { eraseCustomer } from '#api/modules/privacy/erase.ts';
import { exportByEmail } from '#api/modules/privacy/export.ts';
import { removeExpiredPhotos } from '#api/modules/requests/photo-retention.ts';
import { formatTable, jsonLine, listOutput } from '../format.ts';
import { parseLimit, UsageError } from '../io.ts';
import type { CommandDeps } from '../deps.ts';

/** What an operator's command is recorded as in the access log (`privacy log`). */
const OPERATOR = 'operator (cli)';

/** `swappoints privacy …`: what is held about one customer, exported or erased (issue 25). */
export function registerPrivacyCommands(program: Command, { io, session }: CommandDeps) {
  const privacy = program
    .command('privacy')
    .description("Customers' personal data: export or erase one customer's, delete photos past their retention, and see who looked at whose data.");

  privacy
    .command('export')
    .description('Write everything held about a customer to a ZIP: swappoints-data.json and their photos.')
    .argument('<email>', "the customer's email address")
    .requiredOption('--out <file>', 'the ZIP to write (replaced whole, never left half written)')
    .option('--json', 'print {email, file, images, bytes} as JSON')
    .addHelpText(
      'after',
      '\nThe customer can download the same ZIP from their dashboard. Exit 2 when no customer has that email.\n\nExample:\n  $ swappoints privacy export asha.rao@example.com --out asha.zip',
    )
    .action(async (email: string, options: { out: string; json?: boolean }) => {
      const file = resolve(io.cwd, options.out);
      const ctx = await session.context();
      const exported = await exportByEmail(ctx, email);
      await recordAccess(ctx.db, { actorEmail: OPERATOR, action: 'export', subjectEmail: exported.email });
      const part = `${file}.${process.pid}.part`;
      try {
        writeFileSync(part, exported.zip, { mode: 0o600 });
        renameSync(part, file);
      } catch (error) {
        rmSync(part, { force: true });
        throw new UsageError(`could not write ${options.out}: ${error instanceof Error ? error.message : String(error)}`);
      }
      const summary = { email: exported.email, file, images: exported.images, bytes: exported.zip.byteLength };
      await io.stdout.write(options.json ? jsonLine(summary) : `Wrote ${file}: the data of ${exported.email} and ${exported.images} photo${exported.images === 1 ? '' : 's'} (${exported.zip.byteLength} bytes).\n`);
    });

  privacy
    .command('erase')
    .description("Erase a customer: email, name, photos (every store and thumbnail), shipping notes, their mails, sessions and sign-in links. Credit given stays in the ledger under a pseudonym.")
    .argument('<email>', "the customer's email address")
    .option('--dry-run', 'say what would be erased, table by table, and change nothing')
    .option('--json', 'print the report as JSON: {email, pseudonym, dryRun, tables: [{table, rows, erasure}], photos, filesRemoved}')
    .addHelpText(
      'after',
      '\nAll or nothing: the database is erased in one transaction; photo files leave the image store\n' +
        'after it (if the store fails, the job loop retries: see `swappoints jobs list --kind privacy`).\n' +
        'Refused while a parcel is on its way. Afterwards the same email signs in as a new customer.\n' +
        'Exit codes: 0 erased (or would be), 2 no such customer or refused (the reason is printed).\n\n' +
        'Examples:\n  $ swappoints privacy erase asha.rao@example.com --dry-run\n  $ swappoints privacy erase asha.rao@example.com --json',
    )
    .action(async (email: string, options: { dryRun?: boolean; json?: boolean }) => {
      const ctx = await session.context();
      const report = await eraseCustomer(ctx, email, { dryRun: options.dryRun, recordAs: OPERATOR });
      if (options.json) return io.stdout.write(jsonLine(report));
      const head = options.dryRun
        ? `Would erase ${report.email} (as ${report.pseudonym}); nothing was changed.`
        : `Erased ${report.email}: from now on ${report.pseudonym}.${report.filesRemoved ? '' : ' Some photo files are still in the image store: the job loop removes them (swappoints jobs list --kind privacy).'}`;
      const rows = report.tables.map((t) => ({ table: t.table, rows: String(t.rows), erasure: t.erasure }));
      await io.stdout.write(`${head}\n${formatTable(rows, [{ key: 'table', label: 'TABLE' }, { key: 'rows', label: 'ROWS' }, { key: 'erasure', label: 'WHAT HAPPENS', max: 100 }])}`);
    });

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
