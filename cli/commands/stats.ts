import type { Command } from 'commander';
import { getAnalytics } from '#api/modules/analytics/service.ts';
import { isDate, formatDuration } from '#api/modules/analytics/rules.ts';
import { formatMoney } from '#api/lib/money.ts';
import { formatTable, jsonLine } from '../format.ts';
import { UsageError } from '../io.ts';
import type { CommandDeps } from '../deps.ts';

export function registerStatsCommand(program: Command, { io, session }: CommandDeps) {
  program
    .command('stats')
    .description("The programme's figures, as on Admin → Analytics: credit issued, requests and their outcome, approval rate, time to credit, failed pushes, top brands and products.")
    .option('--since <date>', 'from DATE (yyyy-mm-dd, in SHOP_TIME_ZONE) to today; the last 30 days by default')
    .option('--until <date>', 'up to and including DATE (default today)')
    .option('--json', 'print the figures as GET /api/admin/analytics returns them')
    .addHelpText('after', '\nExamples:\n  $ swappoints stats\n  $ swappoints stats --since 2026-10-01 --json | jq .credit.total')
    .action(async (options: { since?: string; until?: string; json?: boolean }) => {
      for (const [name, value] of [['--since', options.since], ['--until', options.until]] as const) {
        if (value !== undefined && !isDate(value)) throw new UsageError(`${name} must be a date like 2026-11-22`);
      }
      const ctx = await session.context();
      const a = await getAnalytics(ctx, { from: options.since, to: options.until });
      if (options.json) return io.stdout.write(jsonLine(a));
      const money = (n: number) => formatMoney(n, a.currency);
      const r = a.requests;
      const lines = [
        `SwapPoints from ${a.from} to ${a.to} (${a.timeZone})`,
        '',
        `Credit issued      ${money(a.credit.total)} in ${a.credit.credits} credits (bonus ${money(a.credit.bonus)})`,
        `Requests received  ${r.received}: ${r.approved} approved, ${r.declined} declined, ${r.cancelled} cancelled, ${r.deleted} deleted, ${r.open} still open`,
        `Approval rate      ${r.approvalRate === null ? '—' : `${Math.round(r.approvalRate * 100)}%`}`,
        `Time to credit     median ${formatDuration(a.timeToCredit.medianHours)}, 90th percentile ${formatDuration(a.timeToCredit.p90Hours)} (${a.timeToCredit.credited} credited)`,
        `Failed pushes      ${a.credit.failedPushes}`,
        '',
      ];
      await io.stdout.write(lines.join('\n'));
      const perBucket = a.credit.series.map((s, i) => ({ start: s.start, credit: money(s.amount), bonus: money(s.bonus), requests: r.series[i]!.received }));
      await io.stdout.write(`Per ${a.bucket}:\n${formatTable(perBucket, [{ key: 'start', label: a.bucket === 'day' ? 'DAY' : 'WEEK OF' }, { key: 'credit', label: 'CREDIT' }, { key: 'bonus', label: 'BONUS' }, { key: 'requests', label: 'REQUESTS' }])}`);
      for (const [title, list] of [['Top brands', a.topBrands], ['Top products', a.topProducts]] as const) {
        if (list.length === 0) continue;
        await io.stdout.write(`\n${title} by credit:\n${formatTable(list.map((b) => ({ ...b, credit: money(b.credit) })), [{ key: 'name', label: 'NAME', max: 50 }, { key: 'credit', label: 'CREDIT' }, { key: 'requests', label: 'REQUESTS' }])}`);
      }
    });
}
