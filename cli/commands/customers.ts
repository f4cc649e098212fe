import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { addCustomer, importCustomerExport, listCustomers } from '#api/modules/customers/service.ts';
import { formatTable, jsonLine, progress } from '../format.ts';
import { UsageError } from '../io.ts';
import type { CommandDeps } from '../deps.ts';

export function registerCustomerCommands(program: Command, { io, session }: CommandDeps) {
  const customers = program.command('customers').description("The shop's customers: only they can sign in (embedded shop backend).");

  customers
    .command('add')
    .description('Add or update one customer.')
    .argument('<email>', "the customer's email address")
    .option('--name <name>', 'full name, e.g. "Asha Rao"')
    .option('--id <shopCustomerId>', "the shop's customer ID")
    .addHelpText('after', '\nExample:\n  $ swappoints customers add asha.rao@example.com --name "Asha Rao"')
    .action(async (email: string, options: { name?: string; id?: string }) => {
      const ctx = await session.context();
      const outcome = await addCustomer(ctx.db, { email, name: options.name, shopCustomerId: options.id });
      await io.stdout.write(`Customer ${email.trim().toLowerCase()} ${outcome}.\n`);
    });

  customers
    .command('import')
    .description("Import the shop's customer export (CSV with Email, First Name, Last Name, Customer ID and Default Address columns).")
    .argument('<file>', 'the CSV file')
    .option('--dry-run', 'check the file and report without writing')
    .option('--json', 'print the report as JSON')
    .addHelpText(
      'after',
      "\nGood rows are imported, bad rows are reported with their line number; importing the same\nfile again changes nothing. The Default Address columns (Address1, Address2, City, Province\nCode, Country Code, Zip, Phone; Phone when the address has none) are kept to fill in the\nprepaid label's pickup form; a customer whose address is empty in the file loses the one held.\n\nExample:\n  $ swappoints customers import customers_export.csv",
    )
    .action(async (file: string, options: { dryRun?: boolean; json?: boolean }) => {
      const path = resolve(io.cwd, file);
      if (!existsSync(path) || !statSync(path).isFile()) throw new UsageError(`file not found: ${file}`);
      const ctx = await session.context();
      const bar = progress(io.stderr, 'Rows read');
      const report = await importCustomerExport(ctx.db, { path }, { dryRun: options.dryRun, onProgress: (n) => bar.update(n) });
      bar.done();
      if (options.json) return io.stdout.write(jsonLine({ ...report, dryRun: Boolean(options.dryRun) }));
      const verb = options.dryRun ? 'Would import' : 'Imported';
      await io.stdout.write(
        `${verb}: ${report.created} new, ${report.updated} updated, ${report.unchanged} unchanged, ${report.problems.length} skipped.\n`,
      );
      for (const p of report.problems) await io.stdout.write(`  line ${p.line}: ${p.message}\n`);
    });

  customers
    .command('list')
    .description('List customers, by email.')
    .option('--search <text>', 'only emails or names containing TEXT')
    .option('--limit <n>', 'at most N customers', '100')
    .option('--json', 'print a JSON array (with each default address, or null)')
    .addHelpText('after', '\nExample:\n  $ swappoints customers list --search rao')
    .action(async (options: { search?: string; limit: string; json?: boolean }) => {
      const limit = Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100_000) throw new UsageError('--limit must be a whole number from 1 to 100000');
      const ctx = await session.context();
      const rows = await listCustomers(ctx.db, { search: options.search, limit });
      if (options.json) {
        return io.stdout.write(
          jsonLine(rows.map((r) => ({ email: r.email, firstName: r.first_name, lastName: r.last_name, shopCustomerId: r.shop_customer_id, address: r.address }))),
        );
      }
      if (rows.length === 0) return io.stdout.write('No customers.\n');
      await io.stdout.write(
        formatTable(
          rows.map((r) => ({ ...r, name: [r.first_name, r.last_name].filter(Boolean).join(' ') })),
          [
            { key: 'email', label: 'EMAIL' },
            { key: 'name', label: 'NAME' },
            { key: 'shop_customer_id', label: 'SHOP ID' },
          ],
        ),
      );
    });
}
