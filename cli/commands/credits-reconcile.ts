import type { Command } from 'commander';
import { reconcileCredits, type ReconcileIssue } from '#api/modules/credit/reconcile.ts';
import { formatMoney } from '#api/lib/money.ts';
import { formatTable, progress } from '../format.ts';
import { CommandError } from '../io.ts';
import type { CommandDeps } from '../deps.ts';
import { parseDateOption } from '../options.ts';

const money = (amount: number | null, currency: string) => (amount === null ? '' : formatMoney(amount, currency));

const row = (issue: ReconcileIssue) => ({
  kind: issue.kind,
  customer: issue.customerEmail,
  ledger: issue.ledgerId ?? '',
  transaction: issue.transactionId ?? '',
  ledgerAmount: money(issue.ledgerAmount, issue.currency),
  shopAmount: money(issue.shopAmount, issue.currency),
  at: issue.at ? issue.at.slice(0, 16).replace('T', ' ') : '',
  detail: issue.detail,
});

/** `swappoints credits reconcile`: the ledger against the shop; exit 1 when anything is off. */
export function registerReconcileCommand(credits: Command, { io, session }: CommandDeps) {
  credits
    .command('reconcile')
    .description("Compare the ledger with the shop's store credit and list every credit missing, extra or different.")
    .option('--since <date>', 'only credits made on or after DATE (yyyy-mm-dd, UTC) or TIME (ISO 8601)')
    .option('--json', 'print the report as one JSON object: counts and the list of issues')
    .addHelpText(
      'after',
      `
With Shopify, each credit in the ledger is looked up among the customer's store credit
transactions: "missing" is in the ledger but not the shop (or never pushed), "different" is in both
with another amount, "extra" is a credit in the shop that no ledger row holds. Before Admin API
2027-01 a credit made by hand in Shopify for one of these customers is listed as extra too (Shopify
keeps nothing to tell it from ours). With the embedded shop, each customer's balance is compared
with the credits the ledger pushed.

Exits 0 when everything matches, 1 when anything is off (or the shop cannot be read), 2 for bad usage.

Example:
  $ swappoints credits reconcile --since 2026-11-01
  $ swappoints credits reconcile --since "$(date -d yesterday +%F)" --json > reconcile.json || alert`,
    )
    .action(async (options: { since?: string; json?: boolean }) => {
      const since = options.since === undefined ? undefined : parseDateOption('--since', options.since, 'start');
      const ctx = await session.context();
      const bar = progress(io.stderr, 'Customers checked');
      let report;
      try {
        report = await reconcileCredits(ctx, { since, onCustomer: (done, total) => bar.update(done, total) });
      } finally {
        bar.done();
      }
      const { issues } = report;
      if (options.json) await io.stdout.write(`${JSON.stringify(report)}\n`);
      else {
        if (issues.length > 0) {
          await io.stdout.write(
            formatTable(issues.map(row), [
              { key: 'kind', label: 'issue' },
              { key: 'customer', label: 'customer' },
              { key: 'ledger', label: 'ledger id' },
              { key: 'transaction', label: 'transaction', max: 60 },
              { key: 'ledgerAmount', label: 'ledger' },
              { key: 'shopAmount', label: 'shop' },
              { key: 'at', label: 'when (UTC)' },
              { key: 'detail', label: 'detail', max: 80 },
            ]),
          );
        }
        const scope = report.since ? ` since ${report.since}` : '';
        await io.stdout.write(
          `${report.ledgerCredits} ledger credit${report.ledgerCredits === 1 ? '' : 's'} and ${report.shopCredits} shop credit${report.shopCredits === 1 ? '' : 's'}${scope} for ${report.customers} customer${report.customers === 1 ? '' : 's'} (${report.shop} shop): ${report.matched} matched, ${issues.length} issue${issues.length === 1 ? '' : 's'}.\n`,
        );
      }
      if (issues.length > 0) {
        const count = (kind: string) => issues.filter((i) => i.kind === kind).length;
        throw new CommandError(`the ledger and the shop disagree: ${count('missing')} missing, ${count('extra')} extra, ${count('different')} different`);
      }
    });
}
