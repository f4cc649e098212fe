import type { Command } from 'commander';
import { isListedAdmin, listAdmins } from '#api/modules/users/queries.ts';
import { revokeSessionsOf } from '#api/modules/auth/sessions.ts';
import { grantAdmin, revokeAdmin } from '#api/modules/users/service.ts';
import { formatTable, jsonLine } from '../format.ts';
import { UsageError } from '../io.ts';
import type { CommandDeps } from '../deps.ts';

export function registerAdminCommands(program: Command, { io, session }: CommandDeps) {
  const admin = program.command('admin').description('Who may review requests and manage warehouses.');

  admin
    .command('grant')
    .description('Make EMAIL an admin (they can sign in even if not a shop customer).')
    .argument('<email>')
    .addHelpText('after', '\nExample:\n  $ swappoints admin grant ops@myshop.in')
    .action(async (email: string) => {
      const ctx = await session.context();
      const outcome = await grantAdmin(ctx.db, email);
      await io.stdout.write(outcome === 'granted' ? `${email.trim().toLowerCase()} is now an admin.\n` : `${email.trim().toLowerCase()} was already an admin.\n`);
    });

  admin
    .command('revoke')
    .description('Take admin away from EMAIL; takes effect on their next request.')
    .argument('<email>')
    .addHelpText('after', '\nExample:\n  $ swappoints admin revoke ops@myshop.in')
    .action(async (email: string) => {
      const normalized = email.trim().toLowerCase();
      if (isListedAdmin(session.settings().adminEmails, normalized)) {
        throw new UsageError(`${normalized} is listed in ADMIN_EMAILS, so it would be an admin again at the next sign-in: remove it from ADMIN_EMAILS (and restart the server), then run this again.`);
      }
      const ctx = await session.context();
      const outcome = await revokeAdmin(ctx.db, email);
      await io.stdout.write(outcome === 'revoked' ? `${email.trim().toLowerCase()} is no longer an admin.\n` : `${email.trim().toLowerCase()} was not an admin.\n`);
    });

  admin
    .command('list')
    .description('List the admins.')
    .option('--json', 'print a JSON array')
    .addHelpText('after', '\nExample:\n  $ swappoints admin list --json')
    .action(async (options: { json?: boolean }) => {
      const ctx = await session.context();
      const rows = await listAdmins(ctx.db);
      if (options.json) return io.stdout.write(jsonLine(rows.map((r) => ({ email: r.email, name: r.name }))));
      await io.stdout.write(rows.length ? formatTable(rows, [{ key: 'email', label: 'EMAIL' }, { key: 'name', label: 'NAME' }]) : 'No admins.\n');
    });

  program
    .command('sessions')
    .description('Signed-in sessions.')
    .command('revoke')
    .description('Sign EMAIL out everywhere, at once.')
    .argument('<email>')
    .addHelpText('after', '\nExample:\n  $ swappoints sessions revoke asha.rao@example.com')
    .action(async (email: string) => {
      const ctx = await session.context();
      const count = await revokeSessionsOf(ctx.db, email);
      await io.stdout.write(`Ended ${count} session${count === 1 ? '' : 's'} of ${email.trim().toLowerCase()}.\n`);
    });
}
