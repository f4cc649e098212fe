import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { Db } from '#api/db/connect.ts';
import type { ExchangeRequestRow, ReturnAddress, ReturnChoice } from '#api/db/types.ts';
import { badRequest, conflict, notFound } from '#api/lib/errors.ts';
import { wholeMoney } from '#api/lib/money.ts';
import { cleanText, tooLongMessage } from '#api/lib/text.ts';
import { recordEvent, type Actor } from '#api/modules/requests/events.ts';
import { CUSTOMER_NOT_FOUND, findRequest, ownRequestOr404 } from '#api/modules/requests/queries.ts';
import { STEPS } from '#api/modules/requests/rules.ts';
import { stateCondition } from '#api/modules/requests/state-sql.ts';
import { emitRequestEvent } from '#api/modules/requests/webhook.ts';
import { pushNow, writeCredit } from './ledger.ts';
import {
  NO_OFFER_WAITING,
  OFFER_ALREADY_ACCEPTED,
  OFFER_ALREADY_DECLINED,
  OFFER_ANSWER_DATE_PASSED,
  OFFER_AUTO_ACCEPTED,
  OFFER_DECLINED_TWICE,
  RETURN_ADDRESS_FIELDS,
  RETURN_ADDRESS_NEEDED,
  offerDeclinedFeedback,
  type ReturnAddressField,
} from './rules.ts';
import type { CreditTerms } from './terms.ts';

/**
 * The answer to a revised offer (offer.ts made it): the customer accepts or declines it on the
 * request page, or the deadlines job accepts it once its answer date has passed. Each is one
 * conditional update on `offer_status = 'pending'`, so of two answers racing exactly one wins (and
 * writes at most one ledger row); the loser gets a 409 naming what happened.
 */

type Decider = { by: 'customer'; userId: string } | { by: 'deadline'; asOf: Date };

/** The credit terms the offer was made with: accepting gives exactly these. */
async function offerTerms(trx: Db, row: ExchangeRequestRow): Promise<CreditTerms> {
  const bonus = Number(row.offer_bonus ?? 0);
  const campaign =
    bonus > 0 && row.offer_campaign_id !== null
      ? await trx.selectFrom('bonus_campaigns').select(['id', 'name', 'kind', 'value']).where('id', '=', row.offer_campaign_id).executeTakeFirst()
      : undefined;
  return {
    base: Number(row.offer_base ?? row.offer_amount),
    bonus,
    total: Number(row.offer_amount),
    campaign: campaign ? { id: Number(campaign.id), name: campaign.name, kind: campaign.kind, value: Number(campaign.value) } : null,
    reason: row.offer_reason,
  };
}

/** Why an answer lost: the state the request is in now. */
function refusal(row: ExchangeRequestRow | undefined, answer: 'accept' | 'decline'): Error {
  if (!row) return notFound(CUSTOMER_NOT_FOUND);
  if (row.offer_status === 'accepted') return conflict(row.offer_decided_by === 'deadline' ? OFFER_AUTO_ACCEPTED : OFFER_ALREADY_ACCEPTED);
  if (row.offer_status === 'declined') return conflict(answer === 'accept' ? OFFER_ALREADY_DECLINED : OFFER_DECLINED_TWICE);
  if (row.offer_status === 'pending' && answer === 'decline') return conflict(OFFER_ANSWER_DATE_PASSED);
  return conflict(NO_OFFER_WAITING);
}

/**
 * Accepts the offer and gives its credit as the credit step does (ledger.ts writeCredit: the one
 * ledger row, the mail, the webhook, the push). The customer's own request only; the deadline only
 * once respondBy is at or before `asOf`. Undefined from the deadline when another answer won.
 */
export async function acceptOffer(ctx: AppContext, actor: Actor, id: string | undefined, decider: Decider): Promise<ExchangeRequestRow | undefined> {
  const current = decider.by === 'customer' ? await ownRequestOr404(ctx.db, decider.userId, id) : await findRequest(ctx.db, id);
  if (!current) return undefined;
  const accepted = await ctx.db.transaction().execute(async (trx) => {
    let update = trx
      .updateTable('exchange_requests')
      .set({
        offer_status: 'accepted',
        offer_decided_at: sql`now()`,
        offer_decided_by: decider.by,
        credit_amount: sql`offer_amount`,
        credit_reason: sql`offer_reason`,
        credited_at: sql`now()`,
        updated_at: sql`now()`,
      })
      .where('id', '=', current.id)
      .where('offer_status', '=', 'pending')
      .where((eb) => stateCondition(eb, STEPS.credit));
    update = decider.by === 'customer' ? update.where('user_id', '=', decider.userId) : update.where('offer_respond_by', '<=', decider.asOf);
    const row = await update.returningAll().executeTakeFirst();
    if (!row) return undefined;
    const terms = await offerTerms(trx, row);
    const amount = wholeMoney(terms.total, row.currency);
    const how = decider.by === 'deadline' ? 'accepted automatically: no answer by its date' : 'accepted by the customer';
    await recordEvent(trx, { requestId: row.id, type: 'offer_accepted', actor, fromStatus: row.status, toStatus: row.status, note: `Offer of ${amount} ${how}` });
    // the photos were attached with the offer; the credit mail links them again
    const mailPhotos = await trx.selectFrom('request_images').select(['url', 'public_id as publicId']).where('request_id', '=', row.id).where('kind', '=', 'inspection').orderBy('position').execute();
    const ledger = await writeCredit(trx, ctx, actor, row, { terms, note: row.offer_note, photos: [], mailPhotos, createdBy: row.offer_made_by });
    return { row, ledger };
  });
  if (!accepted) {
    if (decider.by === 'deadline') return undefined;
    throw refusal(await findRequest(ctx.db, current.id), 'accept');
  }
  ctx.mailer.kick();
  await pushNow(ctx, accepted.ledger.id);
  return (await findRequest(ctx.db, current.id)) ?? accepted.row;
}

/** The return address as sent, cleaned; 400 naming the first field that is missing or too long. */
export function readReturnAddress(input: Partial<Record<ReturnAddressField, string | null>> | null | undefined): ReturnAddress {
  const out: Record<string, string | null> = {};
  for (const [field, spec] of Object.entries(RETURN_ADDRESS_FIELDS) as [ReturnAddressField, (typeof RETURN_ADDRESS_FIELDS)[ReturnAddressField]][]) {
    const value = cleanText(input?.[field] ?? null);
    if (spec.required && !value) throw badRequest(RETURN_ADDRESS_NEEDED, { fields: [field] });
    if (value && value.length > spec.max) throw badRequest(tooLongMessage(spec.label, spec.max), { fields: [field] });
    out[field] = value;
  }
  return out as unknown as ReturnAddress;
}

/**
 * Declines the offer before its answer date: the request is closed (status declined, with a
 * sentence saying so) and waits for the shop to send the item back (returns.ts), or is recycled
 * with no credit.
 */
export async function declineOffer(
  ctx: AppContext,
  actor: Actor,
  userId: string,
  id: string | undefined,
  input: { choice: ReturnChoice; address?: Partial<Record<ReturnAddressField, string | null>> | null },
): Promise<ExchangeRequestRow> {
  const current = await ownRequestOr404(ctx.db, userId, id);
  const address = input.choice === 'return' ? readReturnAddress(input.address) : null;
  // the offer's amount never changes once made, so the sentence can be written before the update
  const feedback = offerDeclinedFeedback(input.choice, wholeMoney(Number(current.offer_amount ?? 0), current.currency));
  const declined = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('exchange_requests')
      .set({
        offer_status: 'declined',
        offer_decided_at: sql`now()`,
        offer_decided_by: 'customer',
        return_choice: input.choice,
        return_address: address ? JSON.stringify(address) : null,
        status: 'declined',
        admin_feedback: feedback,
        updated_at: sql`now()`,
      })
      .where('id', '=', current.id)
      .where('user_id', '=', userId)
      .where('offer_status', '=', 'pending')
      .where('offer_respond_by', '>', sql<Date>`now()`)
      .where((eb) => stateCondition(eb, STEPS.credit))
      .returningAll()
      .executeTakeFirst();
    if (!row) return undefined;
    await recordEvent(trx, { requestId: row.id, type: 'offer_declined', actor, fromStatus: 'approved', toStatus: 'declined', note: feedback });
    await emitRequestEvent(trx, 'request.declined', row);
    return row;
  });
  if (!declined) throw refusal(await findRequest(ctx.db, current.id), 'decline');
  return declined;
}
