import type { Command } from 'commander';
import { migrationStatus } from '#api/db/migrate.ts';
import { jsonLine } from '../format.ts';
import type { CommandDeps } from '../deps.ts';

export function registerMigrateCommand(program: Command, { io, session }: CommandDeps) {
  program
    .command('migrate')
    .description('Bring the database schema up to date (the server also does this when it starts).')
    .option('--json', 'print the result as JSON')
    .addHelpText('after', '\nExample:\n  $ DATABASE_URL=postgres://localhost/swappoints swappoints migrate')
    .action(async (options: { json?: boolean }) => {
      const ctx = await session.context(); // opening the context migrates
      const status = await migrationStatus(ctx.db);
      if (options.json) return io.stdout.write(jsonLine({ applied: status.applied, pending: status.pending }));
      await io.stdout.write(`Schema is up to date (${status.applied.length} migration${status.applied.length === 1 ? '' : 's'} applied).\n`);
    });
}
