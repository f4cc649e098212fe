import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { ShopCreditTransaction } from '#api/integrations/shop/types.ts';

/**
 * `swappoints credits reconcile`: the ledger against the shop's own books. With Shopify every credit
 * the ledger holds is looked up among the customer's store credit transactions, and every credit
 * there that no ledger row holds is listed; the embedded shop keeps no books of its own, so its
 * balances are compared with the ledger's pushed credits. A nightly job alerts on any issue.
 */

export type IssueKind = 'missing' | 'extra' | 'different';

export interface ReconcileIssue {
  kind: IssueKind;
  customerEmail: string;
  ledgerId: number | null;
  transactionId: string | null;
  ledgerAmount: number | null;
  shopAmount: number | null;
  currency: string;
  /** when the ledger row (or, for an extra credit, the shop's transaction) was made, ISO 8601 */
  at: string | null;
  detail: string;
}

export interface ReconcileReport {
  shop: 'embedded' | 'shopify';
  since: string | null;
  customers: number;
  ledgerCredits: number;
  shopCredits: number;
  matched: number;
  issues: ReconcileIssue[];
}

/** A shop transaction may be dated a little before its ledger row (clocks differ): read this much further back. */
const CLOCK_SKEW_MS = 5 * 60_000;

const cents = (amount: string | number) => Math.round(Number(amount) * 100);
const iso = (value: Date | string) => new Date(value).toISOString();

type LedgerRow = {
  id: number;
  amount: string;
  currency: string;
  push_status: string;
  last_push_error: string | null;
  external_transaction_id: string | null;
  created_at: Date | string;
};

function notPushed(row: LedgerRow, email: string): ReconcileIssue {
  const why = row.push_status === 'failed' ? `push failed${row.last_push_error ? `: ${row.last_push_error}` : ''}` : 'push not finished yet';
  return {
    kind: 'missing', customerEmail: email, ledgerId: row.id, transactionId: null, ledgerAmount: Number(row.amount),
    shopAmount: null, currency: row.currency, at: iso(row.created_at), detail: `not in the shop: ${why}`,
  };
}

/** Which of these shop transaction ids some ledger row holds, whenever it was made. */
async function heldIds(ctx: AppContext, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await ctx.db.selectFrom('credit_ledger').select('external_transaction_id').where('external_transaction_id', 'in', ids).execute();
  return new Set(rows.map((r) => r.external_transaction_id!));
}

function compareTransactions(rows: LedgerRow[], txs: ShopCreditTransaction[], held: Set<string>, email: string, since: Date | undefined, report: ReconcileReport) {
  const byId = new Map(txs.map((tx) => [tx.id, tx]));
  const named = new Set(txs.map((tx) => tx.ledgerId).filter((id) => id !== null));
  for (const row of rows) {
    if (since && new Date(row.created_at) < since) continue;
    report.ledgerCredits++;
    const base = { customerEmail: email, ledgerId: row.id, ledgerAmount: Number(row.amount), currency: row.currency, at: iso(row.created_at) };
    if (cents(row.amount) === 0) {
      report.matched++; // a 0 credit (an item taken for recycling) is never sent to the shop
      continue;
    }
    if (row.push_status !== 'success') {
      // a credit whose note names this row is in the shop: it is listed below as extra, not here
      if (!named.has(row.id)) report.issues.push(notPushed(row, email));
      continue;
    }
    const tx = row.external_transaction_id ? byId.get(row.external_transaction_id) : undefined;
    if (!tx) {
      report.issues.push({ ...base, kind: 'missing', transactionId: row.external_transaction_id, shopAmount: null, detail: 'the shop has no such credit transaction' });
    } else if (cents(tx.amount) !== cents(row.amount) || tx.currency !== row.currency) {
      report.issues.push({ ...base, kind: 'different', transactionId: tx.id, shopAmount: Number(tx.amount), detail: `the shop credited ${tx.amount} ${tx.currency}` });
    } else report.matched++;
  }
  for (const tx of txs) {
    if (since && new Date(tx.createdAt) < since) continue;
    report.shopCredits++;
    if (held.has(tx.id)) continue;
    report.issues.push({
      kind: 'extra', customerEmail: email, ledgerId: tx.ledgerId, transactionId: tx.id, ledgerAmount: null, shopAmount: Number(tx.amount),
      currency: tx.currency, at: iso(tx.createdAt),
      detail: tx.ledgerId !== null ? `names ledger row #${tx.ledgerId}, which does not record it` : 'no ledger row holds this credit (made by hand in the shop, or given twice)',
    });
  }
}

/** Compares the ledger (credits made since `since`, or all) with the shop; `onCustomer` reports progress. */
export async function reconcileCredits(ctx: AppContext, options: { since?: Date; onCustomer?: (done: number, total: number) => void } = {}): Promise<ReconcileReport> {
  const { since } = options;
  const report: ReconcileReport = { shop: ctx.shop.kind, since: since ? since.toISOString() : null, customers: 0, ledgerCredits: 0, shopCredits: 0, matched: 0, issues: [] };
  // every customer the ledger ever credited: a credit given twice lands on one of them
  const users = await ctx.db
    .selectFrom('users as u')
    .select(['u.id', 'u.email', 'u.shop_customer_id'])
    .where(({ exists, selectFrom }) => exists(selectFrom('credit_ledger as l').select(sql`1`.as('one')).whereRef('l.user_id', '=', 'u.id')))
    .orderBy('u.email')
    .execute();
  const readFrom = since ? new Date(since.getTime() - CLOCK_SKEW_MS) : new Date(0);
  for (const [index, user] of users.entries()) {
    const rows = await ctx.db
      .selectFrom('credit_ledger')
      .select(['id', 'amount', 'currency', 'push_status', 'last_push_error', 'external_transaction_id', 'created_at'])
      .where('user_id', '=', user.id)
      .orderBy('id')
      .execute();
    const ref = { userId: user.id, email: user.email, shopCustomerId: user.shop_customer_id };
    report.customers++;
    if (ctx.shop.creditTransactions) {
      const txs = await ctx.shop.creditTransactions(ref, readFrom);
      if (txs === null) {
        for (const row of rows) {
          if (since && new Date(row.created_at) < since) continue;
          report.ledgerCredits++;
          report.issues.push({ ...notPushed(row, user.email), detail: 'the customer is not in the shop' });
        }
      } else compareTransactions(rows, txs, await heldIds(ctx, txs.map((tx) => tx.id)), user.email, since, report);
    } else {
      for (const row of rows) {
        if (since && new Date(row.created_at) < since) continue;
        report.ledgerCredits++;
        if (row.push_status === 'success') report.matched++;
        else report.issues.push(notPushed(row, user.email));
      }
      const pushed = rows.filter((r) => r.push_status === 'success' && r.currency === ctx.settings.shopCurrency);
      const owed = pushed.reduce((sum, r) => sum + cents(r.amount), 0);
      const balance = await ctx.shop.getBalance(ref);
      if (cents(balance.amount) !== owed) {
        report.issues.push({
          kind: 'different', customerEmail: user.email, ledgerId: null, transactionId: null, ledgerAmount: owed / 100, shopAmount: balance.amount,
          currency: balance.currency, at: null, detail: 'the balance in the shop differs from the credits the ledger pushed',
        });
      }
    }
    options.onCustomer?.(index + 1, users.length);
  }
  return report;
}
