import { Command, CommanderError } from 'commander';
import { AppError } from '#api/lib/errors.ts';
import { SettingsError } from '#api/settings.ts';
import { registerAdminCommands } from './commands/admin.ts';
import { registerBackupCommands } from './commands/backup.ts';
import { registerCreditCommands } from './commands/credits.ts';
import { registerCustomerCommands } from './commands/customers.ts';
import { registerDemoCommands } from './commands/demo.ts';
import { registerImageCommands } from './commands/images.ts';
import { registerJobCommands } from './commands/jobs.ts';
import { registerMailCommands } from './commands/mail.ts';
import { registerMigrateCommand } from './commands/migrate.ts';
import { registerRequestCommands } from './commands/requests.ts';
import { registerServeCommand } from './commands/serve.ts';
import { registerValuationCommands } from './commands/valuation.ts';
import { registerWarehouseCommands } from './commands/warehouses.ts';
import { registerWebhookCommands } from './commands/webhooks.ts';
import { registerStatsCommand } from './commands/stats.ts';
import { registerPrivacyCommands } from './commands/privacy.ts';
import { runThroughServer } from './control.ts';
import { CommandError, EXIT, UsageError, type CliIO } from './io.ts';
import type { CommandDeps } from './deps.ts';
import { ForwardToServer, type CliSession } from './session.ts';

export function buildProgram(deps: CommandDeps): Command {
  const program = new Command('swappoints')
    .description('Run SwapPoints: the server, its database, customers, admins, requests, warehouses, credits and mail.')
    .version('0.1.0')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => void deps.io.stdout.write(text),
      writeErr: (text) => void deps.io.stderr.write(text),
      outputError: () => {}, // runCli prints one line itself
    })
    .showSuggestionAfterError()
    .addHelpText(
      'after',
      `
Settings come from the environment (DATABASE_URL, DATA_DIR, …; see README.md).
Without DATABASE_URL the embedded database in DATA_DIR is used; while the server runs,
commands are carried out by the server itself.

Examples:
  $ swappoints serve
  $ swappoints customers import shop-customers.csv
  $ swappoints requests list --tab 0
  $ swappoints warehouses seed warehouses.json --dry-run
  $ swappoints credits export --after-id 1234 --out credits.csv
  $ swappoints mail list --to asha.rao@example.com --json
  $ swappoints backup --out swappoints.tar`,
    );

  registerServeCommand(program, deps, runCli);
  registerMigrateCommand(program, deps);
  registerCustomerCommands(program, deps);
  registerAdminCommands(program, deps);
  registerMailCommands(program, deps);
  registerDemoCommands(program, deps);
  registerImageCommands(program, deps);
  registerRequestCommands(program, deps);
  registerWarehouseCommands(program, deps);
  registerValuationCommands(program, deps);
  registerCreditCommands(program, deps);
  registerWebhookCommands(program, deps);
  registerJobCommands(program, deps);
  registerStatsCommand(program, deps);
  registerBackupCommands(program, deps);
  registerPrivacyCommands(program, deps);
  return program;
}

/** Runs one command line; resolves with the exit code (0 ok, 1 failure, 2 bad usage or input). */
export async function runCli(argv: string[], io: CliIO, session: CliSession): Promise<number> {
  const program = buildProgram({ io, session });
  const fail = async (code: number, message: string) => {
    await io.stderr.write(`swappoints: ${message.replace(/\s*\n\s*/g, ' ').trim()}\n`);
    return code;
  };
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof ForwardToServer) {
      try {
        return await runThroughServer(error.socketPath, argv, io);
      } catch (forwardError) {
        return fail(EXIT.failure, `could not reach the running SwapPoints server: ${forwardError instanceof Error ? forwardError.message : String(forwardError)}`);
      }
    }
    if (error instanceof CommanderError) {
      if (error.exitCode === 0 || error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ok;
      if (error.code === 'commander.help') return EXIT.usage;
      return fail(EXIT.usage, `${error.message.replace(/^error: /, '')} (see --help)`);
    }
    if (error instanceof UsageError || error instanceof SettingsError) return fail(EXIT.usage, error.message);
    if (error instanceof AppError) return fail(error.status < 500 ? EXIT.usage : EXIT.failure, error.message);
    if (error instanceof CommandError) return fail(EXIT.failure, error.message);
    return fail(EXIT.failure, error instanceof Error ? error.message : String(error));
  } finally {
    await session.close();
  }
}
