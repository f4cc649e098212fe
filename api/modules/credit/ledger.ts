import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { CreditLedgerRow, ExchangeRequestRow } from '#api/db/types.ts';
import { badRequest, conflict, notFound } from '#api/lib/errors.ts';
import { formatMoney } from '#api/modules/mail/templates.ts';
import { recordEvent, type Actor } from '#api/modules/requests/events.ts';
import { cleanText } from '#api/modules/requests/input.ts';
import { INVALID_CREDIT } from '#api/modules/requests/model.ts';
import { notifyCredited } from '#api/modules/requests/notify.ts';
import { ADMIN_NOT_FOUND, findRequest, requestOr404 } from '#api/modules/requests/queries.ts';
import { pushDueCredits } from './push.ts';

/** The largest credit one request can get (numeric(12,2) holds more; no printer part is worth this). */
export const MAX_CREDIT = 10_000_000;

/**
 * The admin's credit amount as a whole number: a number (or a numeric string) of at least 0,
 * rounded. A rounded 0 is refused too: the ledger only records credit that was given.
 */
export function parseCreditAmount(value: unknown): number {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value)) n = Number(value);
  else throw badRequest(INVALID_CREDIT);
  if (!Number.isFinite(n) || n < 0 || n > MAX_CREDIT) throw badRequest(INVALID_CREDIT);
  const rounded = Math.round(n);
  if (rounded <= 0) throw badRequest(INVALID_CREDIT);
  return rounded;
}

export interface CreditAssigned {
  request: ExchangeRequestRow;
  ledger: CreditLedgerRow;
}

/**
 * PUT /api/admin/exchange-requests/{id}/credit. In one transaction: the request takes the amount
 * (only if received and not yet credited) and the ledger gets its one exchange_credit row (the
 * unique key makes a second impossible). After the commit the row is pushed to the shop at once;
 * the returned ledger row carries the outcome.
 */
export async function assignCredit(
  ctx: AppContext,
  actor: Actor,
  id: string | undefined,
  input: { creditAmount?: unknown; additionalFeedback?: string | null },
): Promise<CreditAssigned> {
  const current = await requestOr404(ctx.db, id);
  const amount = parseCreditAmount(input.creditAmount);
  const note = cleanText(input.additionalFeedback);

  const assigned = await ctx.db.transaction().execute(async (trx) => {
    const request = await trx
      .updateTable('exchange_requests')
      .set({ credit_amount: sql`${amount}::numeric`, credited_at: sql`now()`, updated_at: sql`now()` })
      .where('id', '=', current.id)
      .where('status', '=', 'approved')
      .where('transit_status', '=', 'received')
      .where(sql<boolean>`credit_amount = 0`)
      .returningAll()
      .executeTakeFirst();
    if (!request) return undefined;
    const ledger = await trx
      .insertInto('credit_ledger')
      .values({
        user_id: request.user_id,
        exchange_request_id: request.id,
        type: 'exchange_credit',
        amount,
        currency: request.currency,
        next_push_at: sql`now()`,
        note,
        created_by: actor.id,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordEvent(trx, {
      requestId: request.id,
      type: 'credited',
      actor,
      fromStatus: request.status,
      toStatus: request.status,
      note: `${formatMoney(amount, request.currency)} store credit assigned${note ? `. ${note}` : ''}`,
    });
    await notifyCredited(trx, ctx, request);
    return { request, ledger };
  });

  if (!assigned) {
    const latest = await findRequest(ctx.db, current.id);
    if (!latest) throw notFound(ADMIN_NOT_FOUND);
    if (Number(latest.credit_amount) > 0) throw conflict('Credit has already been assigned to this request.');
    throw conflict('Credit can only be assigned once the item has been received.');
  }
  ctx.mailer.kick();
  await pushDueCredits(ctx, { limit: 1, onlyId: assigned.ledger.id });
  const ledger = await ctx.db.selectFrom('credit_ledger').selectAll().where('id', '=', assigned.ledger.id).executeTakeFirstOrThrow();
  return { request: assigned.request, ledger };
}
