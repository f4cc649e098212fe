import type { Db } from '#api/db/connect.ts';
import type { GraphQLClient } from './shopify-client.ts';
import type { CreditPush } from './types.ts';

/**
 * "Never credit twice": Shopify's storeCreditAccountCredit has no idempotency key, so before a push
 * whose earlier attempt has an unknown outcome is sent again, we read the account's recent
 * transactions and look for the earlier credit.
 *
 * - From Admin API 2027-01 on, each credit carries a merchant-only note naming its ledger row, and a
 *   transaction with our note is ours.
 * - Before 2027-01 Shopify keeps nothing we can attach, so an earlier credit is recognised as a credit
 *   transaction of the same amount and currency, made no earlier than the ledger row (less a margin
 *   for clock skew), that is not an order event and that no other ledger row has already claimed as
 *   its own. The oldest such transaction is taken. Residual risk (docs/shopify.md): a credit of the
 *   same amount made by hand in Shopify's admin inside that window, while our attempt really failed,
 *   is taken for ours, so the customer is credited once fewer rather than once more.
 */

/** How far before the ledger row's creation a transaction may be dated (clocks differ). */
const CLOCK_SKEW_MS = 5 * 60_000;
/** With no ledger row to date the credit from, look back this far. */
const FALLBACK_LOOKBACK_MS = 30 * 86_400_000;
export const PAGE_SIZE = 50;
const MAX_PAGES = 10;
/** Credits Shopify makes by itself for orders; ours are adjustments. */
export const ORDER_EVENTS = new Set(['ORDER_CANCELLATION', 'ORDER_PAYMENT', 'ORDER_REFUND', 'PAYMENT_FAILURE', 'PAYMENT_RETURNED', 'RECURRING_PAYMENT', 'TAX_FINALIZATION']);

export const supportsNotes = (apiVersion: string) => apiVersion >= '2027-01';

export function creditNote(ledgerId: number, publicUrl: string): string {
  return `SwapPoints credit #${ledgerId} (${new URL(publicUrl).host})`;
}

export const toCents = (amount: string | number) => Math.round(Number(amount) * 100);

export function transactionsQuery(withNotes: boolean): string {
  return `query SwapPointsCreditHistory($id: ID!, $after: String) {
  storeCreditAccount(id: $id) {
    transactions(first: ${PAGE_SIZE}, after: $after, reverse: true, sortKey: CREATED_AT) {
      nodes {
        createdAt
        event
        amount { amount currencyCode }
        ... on StoreCreditAccountCreditTransaction { id${withNotes ? ' note' : ''} }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;
}

export interface TransactionNode {
  createdAt: string;
  event: string;
  amount: { amount: string; currencyCode: string };
  id?: string;
  note?: string | null;
}

export interface HistoryData {
  storeCreditAccount: {
    transactions: { nodes: TransactionNode[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
  } | null;
}

export type EarlierCredit = { found: true; transactionId: string } | { found: false; certain: boolean };

async function windowStart(db: Db, ledgerId: number): Promise<Date> {
  const row = await db.selectFrom('credit_ledger').select('created_at').where('id', '=', ledgerId).executeTakeFirst();
  const from = row ? new Date(row.created_at).getTime() : Date.now() - FALLBACK_LOOKBACK_MS;
  return new Date(from - CLOCK_SKEW_MS);
}

async function claimedByOthers(db: Db, ledgerId: number, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('credit_ledger')
    .select('external_transaction_id')
    .where('external_transaction_id', 'in', ids)
    .where('id', '<>', ledgerId)
    .execute();
  return new Set(rows.map((r) => r.external_transaction_id!));
}

export async function findEarlierCredit(
  client: GraphQLClient,
  db: Db,
  push: CreditPush,
  account: { id: string } | undefined,
  note: string | null,
): Promise<EarlierCredit> {
  // No account in this currency: no credit in this currency was ever made.
  if (!account) return { found: false, certain: true };
  const since = await windowStart(db, push.ledgerId);
  const cents = toCents(push.amount);
  const candidates: TransactionNode[] = [];
  let after: string | null = null;
  let reachedStart = false;
  for (let page = 0; page < MAX_PAGES && !reachedStart; page += 1) {
    const data: HistoryData = await client.request<HistoryData>('reading store credit history', transactionsQuery(note !== null), { id: account.id, after });
    const connection = data.storeCreditAccount?.transactions;
    if (!connection) return { found: false, certain: true };
    for (const tx of connection.nodes) {
      if (new Date(tx.createdAt) < since) {
        reachedStart = true;
        break;
      }
      if (!tx.id) continue; // a debit, revert or expiry: no credit of ours
      if (note !== null && tx.note === note) return { found: true, transactionId: tx.id };
      // a note of anyone else's marks the transaction as not ours; a credit without one may be ours,
      // made before the switch to notes
      if (tx.note) continue;
      if (ORDER_EVENTS.has(tx.event)) continue;
      if (tx.amount.currencyCode !== push.currency || toCents(tx.amount.amount) !== cents) continue;
      candidates.push(tx);
    }
    if (!connection.pageInfo.hasNextPage) reachedStart = true;
    after = connection.pageInfo.endCursor;
  }
  const claimed = await claimedByOthers(db, push.ledgerId, candidates.map((c) => c.id!));
  const ours = candidates.filter((c) => !claimed.has(c.id!)).sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt))[0];
  if (ours) return { found: true, transactionId: ours.id! };
  return { found: false, certain: reachedStart };
}
