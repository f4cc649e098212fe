import type { Command } from 'commander';
import { jsonLine } from '../format.ts';
import type { CommandDeps } from '../deps.ts';

export function registerDemoCommands(program: Command, { io, session }: CommandDeps) {
  program
    .command('demo')
    .description('A demo shop to try SwapPoints with.')
    .command('seed')
    .description('Load the demo shop: sample customers, warehouses, an admin and exchange requests in every state. Running it twice changes nothing.')
    .option('--if-empty', 'only when nobody has used the database yet')
    .option('--json', 'print the result as JSON')
    .addHelpText('after', '\nExample:\n  $ swappoints demo seed')
    .action(async (options: { ifEmpty?: boolean; json?: boolean }) => {
      const ctx = await session.context();
      // loaded by the command, not by every process the CLI starts: the server is one (bench:memory)
      const { isDatabaseEmpty, seedDemo } = await import('#api/modules/demo/service.ts');
      if (options.ifEmpty && !(await isDatabaseEmpty(ctx))) {
        return io.stdout.write(options.json ? jsonLine({ seeded: false }) : 'The database is in use; demo not loaded.\n');
      }
      const report = await seedDemo(ctx);
      if (options.json) return io.stdout.write(jsonLine({ seeded: true, ...report }));
      await io.stdout.write(
        `Demo shop loaded: ${report.customers} new customers, ${report.warehouses} new warehouses, ${report.requests} exchange requests; admin ${report.admin}.\n`,
      );
    });
}
