import type { Command } from 'commander';
import { listMail } from '#api/modules/mail/service.ts';
import { formatTable, jsonLine } from '../format.ts';
import { UsageError } from '../io.ts';
import type { CommandDeps } from '../deps.ts';

export function registerMailCommands(program: Command, { io, session }: CommandDeps) {
  program
    .command('mail')
    .description('The mail outbox: every message SwapPoints sent or will send.')
    .command('list')
    .description('List messages, newest first (with MAIL_TRANSPORT=log this is where sign-in links are read).')
    .option('--to <email>', 'only messages to EMAIL')
    .option('--limit <n>', 'at most N messages', '20')
    .option('--json', 'print a JSON array of {id, to, subject, kind, link, text, status, createdAt, sentAt}')
    .addHelpText(
      'after',
      "\nExamples:\n  $ swappoints mail list --to asha.rao@example.com\n  $ swappoints mail list --to asha.rao@example.com --json | jq -r '.[0].link'",
    )
    .action(async (options: { to?: string; limit: string; json?: boolean }) => {
      const limit = Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new UsageError('--limit must be a whole number from 1 to 10000');
      const ctx = await session.context();
      const rows = await listMail(ctx.db, { to: options.to, limit });
      if (options.json) {
        return io.stdout.write(
          jsonLine(
            rows.map((m) => ({
              id: m.id,
              to: m.to_email,
              subject: m.subject,
              kind: m.kind,
              link: m.link,
              text: m.text_body,
              status: m.status,
              createdAt: m.created_at,
              sentAt: m.sent_at,
            })),
          ),
        );
      }
      if (rows.length === 0) return io.stdout.write('No messages.\n');
      await io.stdout.write(
        formatTable(rows, [
          { key: 'id', label: 'ID' },
          { key: 'created_at', label: 'CREATED' },
          { key: 'to_email', label: 'TO', max: 32 },
          { key: 'subject', label: 'SUBJECT', max: 40 },
          { key: 'status', label: 'STATUS' },
          { key: 'link', label: 'LINK', max: 200 },
        ]),
      );
    });
}
