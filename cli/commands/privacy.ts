import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { eraseCustomer } from '#api/modules/privacy/erase.ts';
import { exportByEmail } from '#api/modules/privacy/export.ts';
import { formatTable, jsonLine } from '../format.ts';
import { UsageError } from '../io.ts';
import type { CommandDeps } from '../deps.ts';

/** `swappoints privacy …`: what is held about one customer, exported or erased (issue 25). */
export function registerPrivacyCommands(program: Command, { io, session }: CommandDeps) {
  const privacy = program
    .command('privacy')
    .description("A customer's personal data: export everything held about them, or erase it.");

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
      const report = await eraseCustomer(ctx, email, { dryRun: options.dryRun });
      if (options.json) return io.stdout.write(jsonLine(report));
      const head = options.dryRun
        ? `Would erase ${report.email} (as ${report.pseudonym}); nothing was changed.`
        : `Erased ${report.email}: from now on ${report.pseudonym}.${report.filesRemoved ? '' : ' Some photo files are still in the image store: the job loop removes them (swappoints jobs list --kind privacy).'}`;
      const rows = report.tables.map((t) => ({ table: t.table, rows: String(t.rows), erasure: t.erasure }));
      await io.stdout.write(`${head}\n${formatTable(rows, [{ key: 'table', label: 'TABLE' }, { key: 'rows', label: 'ROWS' }, { key: 'erasure', label: 'WHAT HAPPENS', max: 100 }])}`);
    });
}
