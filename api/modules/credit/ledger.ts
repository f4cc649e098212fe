import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { Db } from '#api/db/connect.ts';
import type { CreditLedgerRow, ExchangeRequestRow } from '#api/db/types.ts';
import { badRequest, conflict, notFound } from '#api/lib/errors.ts';
import { formatMoney } from '#api/lib/money.ts';
import { recordEvent, type Actor } from '#api/modules/requests/events.ts';
import { cleanText } from '#api/lib/text.ts';
import { notifyCredited } from '#api/modules/requests/notify.ts';
import { ADMIN_NOT_FOUND, findRequest, requestOr404 } from '#api/modules/requests/queries.ts';
import { adminTextOverLimit, adminTextTooLong, STEPS } from '#api/modules/requests/rules.ts';
import { stateCondition } from '#api/modules/requests/state-sql.ts';
import type { ImageRef } from '#api/modules/images/service.ts';
import { attachInspectionImages, creditBreakdownText, creditMailLines, creditTerms, quotedTotal, type CreditTerms } from './terms.ts';
import { makeOffer } from './offer.ts';
import { emitRequestEvent } from '#api/modules/requests/webhook.ts';
import { creditExpiresAt } from './expiry.ts';
import { pushDueCredits } from './push.ts';
import { INVALID_CREDIT, MAX_CREDIT, OFFER_WAITING, OFFER_WAS_DECLINED, wholeCredit } from './rules.ts';

export { MAX_CREDIT };

/** The admin's credit amount (see wholeCredit), or 400 with the spec's message. */
export function parseCreditAmount(value: unknown): number {
  const amount = wholeCredit(value);
  if (amount === null) throw badRequest(INVALID_CREDIT);
  return amount;
}

export interface CreditAssigned {
  request: ExchangeRequestRow;
  /** null when the credit is below the quote: the request then holds an offer for the customer (offer.ts) */
  ledger: CreditLedgerRow | null;
}

/**
 * PUT /api/admin/exchange-requests/{id}/credit. Below the request's quote (estimate plus bonus, as
 * the customer saw it) no credit is given: the request holds an offer the customer answers
 * (offer.ts). Otherwise, in one transaction: the request takes the amount (only if received, not
 * yet credited and without an offer) and the ledger gets its one exchange_credit row (the unique key
 * makes a second impossible). After the commit the row is pushed to the shop at once; the returned
 * ledger row carries the outcome.
 */
export async function assignCredit(
  ctx: AppContext,
  actor: Actor,
  id: string | undefined,
  input: { creditAmount?: unknown; additionalFeedback?: string | null; reason?: string | null; inspectionImages?: ImageRef[] | null },
): Promise<CreditAssigned> {
  const current = await requestOr404(ctx.db, id);
  const base = parseCreditAmount(input.creditAmount);
  const note = cleanText(input.additionalFeedback);
  const reason = cleanText(input.reason);
  if (adminTextOverLimit('reason', reason)) throw badRequest(adminTextTooLong('reason'));
  if (adminTextOverLimit('creditNote', note)) throw badRequest(adminTextTooLong('creditNote'));
  const photos = input.inspectionImages ?? [];

  const assigned = await ctx.db.transaction().execute(async (trx): Promise<CreditAssigned | undefined> => {
    // the ledger keeps the admin's amount and the campaign bonus apart; the shop gets their total, once
    const terms = await creditTerms(trx, current, base, reason);
    const quoted = quotedTotal(current);
    if (quoted !== null && terms.total < quoted) {
      const offered = await makeOffer(trx, ctx, actor, current, { terms, quoted, reason, note, photos });
      return offered && { request: offered, ledger: null };
    }
    const amount = terms.total;
    const request = await trx
      .updateTable('exchange_requests')
      .set({ credit_amount: sql`${amount}::numeric`, credit_reason: terms.reason, credited_at: sql`now()`, updated_at: sql`now()` })
      .where('id', '=', current.id)
      .where((eb) => stateCondition(eb, STEPS.credit))
      .where('offer_status', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!request) return undefined;
    const ledger = await writeCredit(trx, ctx, actor, request, { terms, note, photos });
    return { request, ledger };
  });

  if (!assigned) {
    const latest = await findRequest(ctx.db, current.id);
    if (!latest) throw notFound(ADMIN_NOT_FOUND);
    if (latest.offer_status === 'pending') throw conflict(OFFER_WAITING);
    if (latest.offer_status === 'declined') throw conflict(OFFER_WAS_DECLINED);
    if (latest.credited_at !== null) throw conflict('Credit has already been assigned to this request.');
    throw conflict('Credit can only be assigned once the item has been received.');
  }
  ctx.mailer.kick();
  if (!assigned.ledger) return assigned;
  return { request: assigned.request, ledger: await pushNow(ctx, assigned.ledger.id) };
}

/** Pushes a just-written ledger row to the shop and reads back its outcome. */
export async function pushNow(ctx: AppContext, ledgerId: number | string): Promise<CreditLedgerRow> {
  await pushDueCredits(ctx, { limit: 1, onlyId: Number(ledgerId) });
  return ctx.db.selectFrom('credit_ledger').selectAll().where('id', '=', Number(ledgerId)).executeTakeFirstOrThrow();
}

/**
 * What giving credit writes once the request row has taken it (the admin's credit step, or an
 * accepted offer): the one ledger row, the timeline entry, the inspection photos, the mail and the
 * webhook event. Call it inside the transaction that updated the request. `photos` are attached
 * now; `mailPhotos` (photos by default) are the ones the mail links.
 */
export async function writeCredit(
  trx: Db,
  ctx: AppContext,
  actor: Actor,
  request: ExchangeRequestRow,
  input: { terms: CreditTerms; note: string | null; photos: ImageRef[]; eventNote?: string; createdBy?: string | null; mailPhotos?: ImageRef[] },
): Promise<CreditLedgerRow> {
  const { terms, note, photos } = input;
  const amount = terms.total;
  const ledger = await trx
    .insertInto('credit_ledger')
    .values({
      user_id: request.user_id,
      exchange_request_id: request.id,
      type: 'exchange_credit',
      amount,
      base_amount: terms.base,
      bonus_amount: terms.bonus,
      campaign_id: terms.bonus > 0 ? terms.campaign?.id : null,
      currency: request.currency,
      // nothing to push for a 0 credit: the row is settled as it is written
      ...(amount > 0 ? { next_push_at: sql`now()` } : { push_status: 'success' as const, next_push_at: null }),
      note,
      created_by: input.createdBy === undefined ? actor.id : input.createdBy,
      expires_at: creditExpiresAt(ctx.settings),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordEvent(trx, {
    requestId: request.id,
    type: 'credited',
    actor,
    fromStatus: request.status,
    toStatus: request.status,
    note:
      input.eventNote ??
      `${formatMoney(amount, request.currency)} store credit assigned${terms.bonus > 0 ? ` (${creditBreakdownText(terms, request.currency)})` : ''}${terms.reason ? `. Below the quote because: ${terms.reason}` : ''}${note ? `. ${note}` : ''}`,
  });
  if (actor.id && photos.length > 0) await attachInspectionImages(trx, { adminId: actor.id, requestId: request.id, images: photos });
  await notifyCredited(trx, ctx, request, (lang) => creditMailLines(request, terms, input.mailPhotos ?? photos, ctx.settings.publicUrl, lang));
  await emitRequestEvent(trx, 'request.credited', request);
  return ledger;
}
