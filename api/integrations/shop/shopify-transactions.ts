import type { GraphQLClient } from './shopify-client.ts';
import { ORDER_EVENTS, transactionsQuery, type HistoryData } from './shopify-earlier-credit.ts';
import type { ShopCreditTransaction } from './types.ts';

/**
 * A customer's store credit transactions since a time, for `credits reconcile`: every credit of
 * each of their accounts, newest first, page by page until one older than `since`. Debits, order
 * events and credits whose note is someone else's are left out; a note naming one of our ledger
 * rows is read back as its id.
 */

const NOTE = /^SwapPoints credit #(\d+) \((.+)\)$/;

export async function listCreditTransactions(
  client: GraphQLClient,
  accounts: { id: string }[],
  since: Date,
  notes: { host: string } | null,
): Promise<ShopCreditTransaction[]> {
  const out: ShopCreditTransaction[] = [];
  for (const account of accounts) {
    let after: string | null = null;
    for (;;) {
      const data: HistoryData = await client.request<HistoryData>('reading store credit history', transactionsQuery(notes !== null), { id: account.id, after });
      const connection = data.storeCreditAccount?.transactions;
      if (!connection) break;
      let older = false;
      for (const tx of connection.nodes) {
        if (new Date(tx.createdAt) < since) {
          older = true;
          break;
        }
        if (!tx.id || ORDER_EVENTS.has(tx.event)) continue;
        let ledgerId: number | null = null;
        if (tx.note) {
          const ours = NOTE.exec(tx.note);
          if (!ours || ours[2] !== notes?.host) continue;
          ledgerId = Number(ours[1]);
        }
        out.push({ id: tx.id, amount: tx.amount.amount, currency: tx.amount.currencyCode, createdAt: tx.createdAt, ledgerId });
      }
      if (older || !connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
  }
  return out;
}
