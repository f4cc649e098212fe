import type { Db } from '#api/db/connect.ts';
import type { CreditRecord } from '#api/modules/credit/model.ts';

/**
 * The credit ledger as every credit listing reads it: each entry (`l`) with its customer (`u`), and
 * one mapping from a row to the API's CreditRecord. The history page, the CLI export and the CSV
 * export each add their own times, filters and order.
 */

/** The columns every listing of the ledger shows (the CSV export reads only these). */
export const LEDGER_ENTRY_COLUMNS = [
  'l.id',
  'l.user_id',
  'l.exchange_request_id',
  'l.type',
  'l.amount',
  'l.base_amount',
  'l.bonus_amount',
  'l.currency',
  'l.push_status',
  'l.external_transaction_id',
  'l.note',
  'u.email',
] as const;

export const ledgerWithCustomer = (db: Db) => db.selectFrom('credit_ledger as l').innerJoin('users as u', 'u.id', 'l.user_id');

/**
 * What a CreditRecord is made of, but for its two times: each caller selects those in its own form.
 * The request may have been deleted since (the ledger keeps its rows), hence the left join.
 */
export const creditRecordQuery = (db: Db) =>
  ledgerWithCustomer(db)
    .leftJoin('exchange_requests as r', 'r.id', 'l.exchange_request_id')
    .select([...LEDGER_ENTRY_COLUMNS, 'l.push_attempts', 'l.last_push_error', 'r.product_name']);

type CreditRecordRow = Awaited<ReturnType<ReturnType<typeof creditRecordQuery>['executeTakeFirstOrThrow']>>;

/** A ledger row as the API's credit record; `createdAt` and `pushedAt` are ISO 8601 texts. */
export function toCreditRecord(row: CreditRecordRow, times: { createdAt: string; pushedAt: string | null }): CreditRecord {
  return {
    id: Number(row.id),
    userId: row.user_id,
    exchangeRequestId: row.exchange_request_id,
    type: row.type,
    amount: Number(row.amount),
    baseAmount: Number(row.base_amount ?? row.amount),
    bonusAmount: Number(row.bonus_amount),
    currency: row.currency,
    loyaltyPointsSuccess: row.push_status === 'success',
    createdAt: times.createdAt,
    pushStatus: row.push_status,
    pushError: row.last_push_error,
    pushAttempts: row.push_attempts,
    pushedAt: times.pushedAt,
    customerEmail: row.email,
    productName: row.product_name,
    transactionId: row.external_transaction_id,
    note: row.note,
  };
}
