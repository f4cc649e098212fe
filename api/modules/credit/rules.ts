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

// ---- revised offers (issue 24): a credit below the quote waits for the customer's answer ---------

/** The customer's answers to an offer and the return, in the words the API and the pages use. */
export const OFFER_REMINDER_DAYS_BEFORE = 2;
export const NO_OFFER_WAITING = 'There is no offer waiting for your answer on this request.';
export const OFFER_ALREADY_ACCEPTED = 'This offer has already been accepted.';
export const OFFER_AUTO_ACCEPTED = 'This offer was accepted automatically when its answer date passed.';
export const OFFER_ALREADY_DECLINED = 'You declined this offer; it can no longer be accepted.';
export const OFFER_DECLINED_TWICE = 'You have already declined this offer.';
export const OFFER_ANSWER_DATE_PASSED = 'The answer date of this offer has passed, so it is accepted as you were told.';
export const OFFER_WAITING = "An offer is waiting for the customer's answer: credit is given when they accept it.";
export const OFFER_WAS_DECLINED = 'The customer declined the offer: this request gets no credit.';
export const DECLINE_BODY = "Send choice 'return' with your address, or choice 'recycle'.";
export const RETURN_ADDRESS_NEEDED = 'Please fill in all required address fields.';
export const RETURN_BODY = 'Send the carrier name and tracking number of the return shipment.';
export const NO_RETURN_TO_SHIP = 'This request has no return waiting to be shipped.';
export const RETURN_ALREADY_SHIPPED = 'This return has already been shipped.';
export const RETURN_BEING_BOOKED = 'This return is being booked with the carrier right now. Reload the page in a minute to see its tracking number.';

/** The return address form's fields, labelled as the form shows them, and their limits. */
export const RETURN_ADDRESS_FIELDS = {
  name: { label: 'Full name', max: 200, required: true },
  addressLine1: { label: 'Address line 1', max: 200, required: true },
  addressLine2: { label: 'Address line 2', max: 200, required: false },
  city: { label: 'City', max: 100, required: true },
  state: { label: 'State', max: 100, required: true },
  postalCode: { label: 'Postal code', max: 20, required: true },
  country: { label: 'Country', max: 100, required: true },
  phone: { label: 'Phone', max: 30, required: false },
} as const;
export type ReturnAddressField = keyof typeof RETURN_ADDRESS_FIELDS;

/** The feedback a declined offer closes the request with. */
export const offerDeclinedFeedback = (choice: 'return' | 'recycle', amount: string) =>
  choice === 'return'
    ? `You declined our offer of ${amount}: we are sending the item back to you.`
    : `You declined our offer of ${amount}: we recycle the item, no credit given.`;

/** The feedback an approved request that was never shipped is closed with. */
export const notShippedFeedback = (days: number) => `Not shipped within ${days} days`;
