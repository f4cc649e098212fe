import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { Db } from '#api/db/connect.ts';
import type { ExchangeRequestRow } from '#api/db/types.ts';
import { badRequest } from '#api/lib/errors.ts';
import { dateTimeFormat } from '#api/lib/intl.ts';
import { wholeMoney } from '#api/lib/money.ts';
import type { ImageRef } from '#api/modules/images/service.ts';
import { enqueueMail } from '#api/modules/mail/service.ts';
import { queueWhatsApp } from '#api/modules/whatsapp/service.ts';
import { offerMadeMail } from '#api/modules/mail/templates.ts';
import { recordEvent, type Actor } from '#api/modules/requests/events.ts';
import { STEPS } from '#api/modules/requests/rules.ts';
import { stateCondition } from '#api/modules/requests/state-sql.ts';
import { languageOf } from '#api/modules/users/queries.ts';
import { LANGUAGE_LOCALES, type Language } from '#api/modules/users/rules.ts';
import { creditReasonRequired } from '#api/modules/valuation/rules.ts';
import { attachInspectionImages, type CreditTerms } from './terms.ts';

/**
 * Making a revised offer (issue 24): the admin's credit is below the quote the customer saw, so no
 * credit is given yet. The request keeps the terms (amount, bonus, campaign), the reason and the
 * answer date; the customer is mailed, and answers on the request page (offer-answer.ts) or the
 * deadlines job accepts it for them once the date passes.
 */

const DAY_MS = 86_400_000;

/** '2 December 2026' ('2 दिसंबर 2026' in hi-IN), as the shop's calendar reads the day; English for the admins' timeline. */
export function mailDate(value: Date | string, timeZone: string, locale = 'en-IN'): string {
  return dateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone }).format(new Date(value));
}

/**
 * The offer's amounts and answer date as its customer reads them, in their language: the mails and
 * the WhatsApp template (which goes out in the same language) both use these.
 */
export function offerFigures(
  row: Pick<ExchangeRequestRow, 'offer_amount' | 'offer_quoted_amount' | 'offer_respond_by' | 'currency'>,
  timeZone: string,
  lang: Language,
): { amount: string; quoted: string; respondBy: string } {
  const locale = LANGUAGE_LOCALES[lang];
  return {
    amount: wholeMoney(Number(row.offer_amount), row.currency, locale),
    quoted: wholeMoney(Number(row.offer_quoted_amount), row.currency, locale),
    respondBy: mailDate(row.offer_respond_by!, timeZone, locale),
  };
}

/** The public addresses of the request's inspection photos, for the mails. */
export async function inspectionPhotoUrls(db: Db, requestId: string, publicUrl: string): Promise<string[]> {
  const rows = await db.selectFrom('request_images').select('url').where('request_id', '=', requestId).where('kind', '=', 'inspection').orderBy('position').execute();
  return rows.map((r) => new URL(r.url, publicUrl).toString());
}

/**
 * Puts the offer on a received, uncredited request without one (a conditional update: a racing
 * credit or offer loses), attaches the inspection photos, records it on the timeline and queues the
 * customer's mail. Undefined when the request's state did not allow it; the caller says why.
 */
export async function makeOffer(
  trx: Db,
  ctx: AppContext,
  actor: Actor,
  current: ExchangeRequestRow,
  input: { terms: CreditTerms; quoted: number; reason: string | null; note: string | null; photos: ImageRef[] },
): Promise<ExchangeRequestRow | undefined> {
  const { terms, quoted, reason } = input;
  if (!reason) throw badRequest(creditReasonRequired(quoted, current.currency), { fields: ['reason'] });
  const respondBy = new Date(Date.now() + ctx.settings.offerResponseDays * DAY_MS);
  const row = await trx
    .updateTable('exchange_requests')
    .set({
      offer_status: 'pending',
      offer_base: terms.base,
      offer_bonus: terms.bonus,
      offer_campaign_id: terms.bonus > 0 ? (terms.campaign?.id ?? null) : null,
      offer_amount: terms.total,
      offer_quoted_amount: quoted,
      offer_reason: reason,
      offer_note: input.note,
      offer_made_by: actor.id,
      offer_made_at: sql`now()`,
      offer_respond_by: respondBy,
      updated_at: sql`now()`,
    })
    .where('id', '=', current.id)
    .where((eb) => stateCondition(eb, STEPS.credit))
    .where('offer_status', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (!row) return undefined;
  if (actor.id) await attachInspectionImages(trx, { adminId: actor.id, requestId: row.id, images: input.photos });
  const amount = wholeMoney(terms.total, row.currency);
  const quotedText = wholeMoney(quoted, row.currency);
  const answerBy = mailDate(respondBy, ctx.settings.shopTimeZone);
  await recordEvent(trx, {
    requestId: row.id,
    type: 'offered',
    actor,
    fromStatus: row.status,
    toStatus: row.status,
    note: `Offer of ${amount} (quoted ${quotedText}) sent to the customer, to answer by ${answerBy}. Below the quote because: ${reason}`,
  });
  const lang = await languageOf(trx, row.user_id);
  const theirs = offerFigures(row, ctx.settings.shopTimeZone, lang);
  await enqueueMail(
    trx,
    offerMadeMail(row.customer_email, ctx.settings.publicUrl, { id: row.id, productName: row.product_name, brand: row.brand }, {
      ...theirs,
      reason,
      photoUrls: await inspectionPhotoUrls(trx, row.id, ctx.settings.publicUrl),
    }, lang),
  );
  await queueWhatsApp(trx, ctx, {
    userId: row.user_id,
    template: 'offer_waiting',
    params: { product: row.product_name, amount: theirs.amount, respondBy: theirs.respondBy, link: `${ctx.settings.publicUrl}/exchange/${row.id}` },
  });
  return row;
}
