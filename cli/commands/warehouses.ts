import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { createWarehouse, listWarehouses, type WarehouseInput } from '#api/modules/warehouses/service.ts';
import { readWarehouseFile, seedWarehouses } from '#api/modules/warehouses/seed.ts';
import { importSummary, jsonLine, listOutput } from '../format.ts';
import { UsageError } from '../io.ts';
import type { CommandDeps } from '../deps.ts';

interface AddOptions {
  name?: string;
  addressLine1?: string;
  addressLine2?: string;
  city?: string;
  state?: string;
  postalCode?: string;
  country?: string;
  contactPerson?: string;
  contactPhone?: string;
  inactive?: boolean;
  json?: boolean;
}

export function registerWarehouseCommands(program: Command, { io, session }: CommandDeps) {
  const warehouses = program.command('warehouses').description('The warehouses customers ship approved items to.');

  warehouses
    .command('list')
    .description('List every warehouse, by name.')
    .option('--json', 'print a JSON array of warehouses as the API gives them')
    .addHelpText('after', '\nExample:\n  $ swappoints warehouses list\n  $ swappoints warehouses list --json | jq -r \'.[] | select(.isActive) | .name\'')
    .action(async (options: { json?: boolean }) => {
      const ctx = await session.context();
      const { items } = await listWarehouses(ctx.db);
      await io.stdout.write(
        listOutput(items, {
          json: options.json,
          empty: 'No warehouses.',
          row: (w) => ({ ...w, active: w.isActive ? 'yes' : 'no', contact: [w.contactPerson, w.contactPhone].filter(Boolean).join(', ') }),
          columns: [
            { key: 'name', label: 'NAME', max: 32 },
            { key: 'city', label: 'CITY', max: 20 },
            { key: 'state', label: 'STATE', max: 20 },
            { key: 'postalCode', label: 'POSTAL CODE', max: 12 },
            { key: 'country', label: 'COUNTRY', max: 16 },
            { key: 'contact', label: 'CONTACT', max: 36 },
            { key: 'active', label: 'ACTIVE' },
            { key: 'id', label: 'ID', max: 36 },
          ],
        }),
      );
    });

  warehouses
    .command('add')
    .description('Add a warehouse (the same checks and messages as the admin page).')
    .option('--name <name>', 'the warehouse name (unique, whatever its case)')
    .option('--address-line1 <text>', 'first address line')
    .option('--address-line2 <text>', 'second address line (optional)')
    .option('--city <city>', 'city')
    .option('--state <state>', 'state')
    .option('--postal-code <code>', 'postal code')
    .option('--country <country>', 'country')
    .option('--contact-person <name>', 'contact person (optional)')
    .option('--contact-phone <phone>', 'contact phone (optional)')
    .option('--inactive', 'add it as inactive: never offered when approving a request')
    .option('--json', 'print the new warehouse as JSON')
    .addHelpText(
      'after',
      '\nExample:\n  $ swappoints warehouses add --name "Pune Returns Desk" --address-line1 "Survey 12, Hinjewadi" \\\n      --city Pune --state Maharashtra --postal-code 411057 --country India',
    )
    .action(async (options: AddOptions) => {
      const input: WarehouseInput = {
        name: options.name,
        addressLine1: options.addressLine1,
        addressLine2: options.addressLine2,
        city: options.city,
        state: options.state,
        postalCode: options.postalCode,
        country: options.country,
        contactPerson: options.contactPerson,
        contactPhone: options.contactPhone,
        isActive: !options.inactive,
      };
      const ctx = await session.context();
      const created = await createWarehouse(ctx.db, input);
      if (options.json) return io.stdout.write(jsonLine(created));
      await io.stdout.write(`Warehouse ${created.name} created${created.isActive ? '' : ' (inactive)'}: ${created.id}\n`);
    });

  warehouses
    .command('seed')
    .description('Create or update warehouses from a JSON array or a CSV file, matched by name (case-insensitive).')
    .argument('<file>', 'a .json file (an array of warehouses) or a .csv file with a header row of the field names')
    .option('--dry-run', 'check the file and say what would change, without writing')
    .option('--json', 'print the report as JSON: {dryRun, created, updated, unchanged, problems}')
    .addHelpText(
      'after',
      `
Fields: name, addressLine1, addressLine2, city, state, postalCode, country, contactPerson,
contactPhone, isActive (true or false; absent means true). Every row is checked as the API checks it;
bad rows are reported with their line (and, for JSON, their index in the array) and fields, and
the command then exits 2. Good rows are still written; running the same file again changes nothing.

Example:
  $ swappoints warehouses seed warehouses.json --dry-run
  $ swappoints warehouses seed warehouses.csv`,
    )
    .action(async (file: string, options: { dryRun?: boolean; json?: boolean }) => {
      const path = resolve(io.cwd, file);
      if (!existsSync(path) || !statSync(path).isFile()) throw new UsageError(`file not found: ${file}`);
      const ctx = await session.context();
      const rows = await readWarehouseFile(path, file);
      const dryRun = Boolean(options.dryRun);
      const report = await seedWarehouses(ctx.db, rows, { dryRun });
      await io.stdout.write(options.json ? jsonLine({ dryRun, ...report }) : importSummary({ ...report, updated: report.updated.map((u) => ({ label: u.name, fields: u.fields })) }, { dryRun, listUnchanged: true }));
      const bad = report.problems.length;
      if (bad > 0) throw new UsageError(`${bad} bad row${bad === 1 ? '' : 's'} in ${file}; ${dryRun ? 'nothing was written' : 'the good rows were written'}`);
    });
}
