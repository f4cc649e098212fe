import type { Command } from 'commander';
import { CHANNELS, listNotifications, type Channel } from '#api/modules/whatsapp/notifications.ts';
import { listOutput } from '../format.ts';
import { parseLimit, UsageError } from '../io.ts';
import type { CommandDeps } from '../deps.ts';

export function registerNotificationCommands(program: Command, { io, session }: CommandDeps) {
  program
    .command('notifications')
    .description('What SwapPoints told customers and staff, by mail and by WhatsApp.')
    .command('list')
    .description(
      'Notifications, newest first. STATUS is the outbox\'s (pending, sent, failed); DELIVERY is what WhatsApp last reported (sent, delivered, read, failed). Retry a failed one with `swappoints jobs retry ID`.',
    )
    .option('--channel <channel>', `only this channel (${CHANNELS.join(' or ')})`)
    .option('--limit <n>', 'at most N', '50')
    .option('--json', 'print a JSON array of {id, channel, to, kind, status, delivery, attempts, lastError, createdAt, sentAt}')
    .addHelpText('after', '\nExamples:\n  $ swappoints notifications list --channel whatsapp\n  $ swappoints notifications list --json | jq \'.[] | select(.status == "failed")\'')
    .action(async (options: { channel?: string; limit: string; json?: boolean }) => {
      const limit = parseLimit(options.limit, 1000);
      if (options.channel !== undefined && !(CHANNELS as readonly string[]).includes(options.channel)) throw new UsageError(`--channel must be one of ${CHANNELS.join(', ')}`);
      const ctx = await session.context();
      const rows = await listNotifications(ctx.db, { channel: options.channel as Channel | undefined, limit });
      await io.stdout.write(
        listOutput(rows, {
          json: options.json,
          empty: 'No notifications.',
          row: (n) => n as unknown as Record<string, unknown>,
          columns: [
            { key: 'id', label: 'ID' },
            { key: 'createdAt', label: 'CREATED' },
            { key: 'to', label: 'TO', max: 32 },
            { key: 'kind', label: 'KIND', max: 28 },
            { key: 'status', label: 'STATUS' },
            { key: 'delivery', label: 'DELIVERY' },
            { key: 'lastError', label: 'LAST ERROR', max: 60 },
          ],
        }),
      );
    });
}
