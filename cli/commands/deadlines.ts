import type { Command } from 'commander';
import { runDeadlines, type DeadlineItem } from '#api/modules/deadlines/service.ts';
import { formatTable, jsonLine } from '../format.ts';
import { parseDateOption } from '../options.ts';
import type { CommandDeps } from '../deps.ts';

const SECTIONS = [
  ['autoAccepted', 'Offers accepted (no answer by their date)'],
  ['offerReminded', 'Offers reminded (2 days before their date)'],
  ['closed', 'Requests closed (not shipped in time)'],
  ['shipReminded', 'Requests reminded to ship'],
] as const;

export function registerDeadlineCommands(program: Command, { io, session }: CommandDeps) {
  const deadlines = program
    .command('deadlines')
    .description('The deadlines the server runs every 15 minutes: revised offers not answered in time, approved requests not shipped in time, and their reminders.');

  deadlines
    .command('run')
    .description(
      'Runs the deadlines now: accepts offers past their answer date (OFFER_RESPONSE_DAYS) and reminds those 2 days from it; closes approved requests not shipped within SHIP_BY_DAYS as declined and reminds those SHIP_REMINDER_DAYS from it. Each change is recorded, so running it again for the same date changes nothing and mails nobody twice.',
    )
    .option('--as-of <date>', 'act as if it were the end of DATE (yyyy-mm-dd, UTC) or this time (yyyy-mm-ddThh:mm[Z|+hh:mm]); now by default')
    .option('--dry-run', 'report what would be accepted, closed and reminded, changing nothing')
    .option('--json', 'print {asOf, dryRun, autoAccepted, offerReminded, closed, shipReminded}, each a list of {id, productName, customerEmail}')
    .addHelpText('after', '\nExit code 0 when it ran (whether or not anything was due), 2 for a bad --as-of.\n\nExamples:\n  $ swappoints deadlines run\n  $ swappoints deadlines run --as-of 2026-12-31 --dry-run\n  $ swappoints deadlines run --json | jq \'.closed | length\'')
    .action(async (options: { asOf?: string; dryRun?: boolean; json?: boolean }) => {
      const asOf = options.asOf === undefined ? undefined : parseDateOption('--as-of', options.asOf, 'end');
      const ctx = await session.context();
      const report = await runDeadlines(ctx, { asOf, dryRun: options.dryRun });
      if (options.json) return io.stdout.write(jsonLine(report));
      const lines = [`Deadlines as of ${report.asOf}${report.dryRun ? ' (dry run: nothing changed)' : ''}`];
      for (const [key, title] of SECTIONS) {
        const list: DeadlineItem[] = report[key];
        lines.push('', `${title}: ${list.length}`);
        if (list.length > 0) lines.push(formatTable(list as unknown as Record<string, unknown>[], [{ key: 'id', label: 'ID' }, { key: 'productName', label: 'PRODUCT', max: 40 }, { key: 'customerEmail', label: 'CUSTOMER' }]).trimEnd());
      }
      await io.stdout.write(`${lines.join('\n')}\n`);
    });
}
