import { MAX_CREDIT } from '#api/config/shop.ts';

/**
 * Credit rules in plain TypeScript (no framework import): the API, the admin pages and the CLI
 * read them from here.
 */

export const INVALID_CREDIT = 'Please enter a valid credit amount';
export { CREDIT_BEFORE_COMPLETING } from '#api/modules/requests/rules.ts';

/** The largest credit one request can get: api/config/shop.ts. */
export { MAX_CREDIT };

/**
 * The admin's credit amount as a whole number, or null when it is not one: a number (or a numeric
 * string) from 0 to MAX_CREDIT, rounded (§5: credit ≥ 0). 0 is an item taken for recycling.
 */
export function wholeCredit(value: unknown): number | null {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value)) n = Number(value);
  else return null;
  if (!Number.isFinite(n) || n < 0 || n > MAX_CREDIT) return null;
  return Math.round(n);
}

/**
 * The credit history as CSV, one layout for the admin page's download and `swappoints credits
 * export`: a column for every field of the credit record, labelled as the page labels them.
 */
export const CREDIT_CSV_HEADER = [
  'Date', 'User ID', 'Exchange ID', 'Type', 'Amount', 'Base', 'Bonus', 'Currency', 'Status', 'Customer Email', 'Transaction ID', 'Note',
  'Ledger ID', 'Push Attempts', 'Pushed At', 'Push Error',
] as const;

export const CREDIT_TYPE_LABELS: Record<string, string> = { exchange_credit: 'Exchange Credit' };
export const PUSH_STATUS_LABELS: Record<string, string> = { success: 'Success', failed: 'Failed', pending: 'Pending' };

/** What one CSV row is made of: the API's credit record (CreditRecord in requests/model.ts). */
export interface CreditCsvRecord {
  id: number;
  userId: string;
  exchangeRequestId: string;
  type: string;
  amount: number;
  baseAmount: number;
  bonusAmount: number;
  currency: string;
  createdAt: string;
  pushStatus: string;
  pushError: string | null;
  pushAttempts: number;
  pushedAt: string | null;
  customerEmail: string;
  transactionId: string | null;
  note: string | null;
}

/** The cells of one credit, in CREDIT_CSV_HEADER's order. */
export const creditCsvCells = (r: CreditCsvRecord) => [
  r.createdAt, r.userId, r.exchangeRequestId, CREDIT_TYPE_LABELS[r.type] ?? r.type,
  r.amount.toFixed(2), r.baseAmount.toFixed(2), r.bonusAmount.toFixed(2), r.currency, PUSH_STATUS_LABELS[r.pushStatus] ?? r.pushStatus,
  r.customerEmail, r.transactionId, r.note, r.id, r.pushAttempts, r.pushedAt, r.pushError,
];
