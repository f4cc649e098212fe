import { sql } from 'kysely';
import { IMAGE_LIMITS } from '#api/config/shop.ts';
import type { Db } from '#api/db/connect.ts';
import type { ExchangeRequestRow } from '#api/db/types.ts';
import { badRequest } from '#api/lib/errors.ts';
import type { ImageRef } from '#api/modules/images/service.ts';
import { campaignForCredit, type RunningCampaign } from '#api/modules/valuation/queries.ts';
import { storedQuote } from '#api/modules/valuation/quote.ts';
import { bonusOf, campaignBonusName, creditReasonRequired, wholeMoney } from '#api/modules/valuation/rules.ts';
import { MAIL_TEXTS } from '#api/modules/mail/texts.ts';
import type { Language } from '#api/modules/users/rules.ts';

/**
 * The credit terms: what an admin's amount becomes at credit time (the campaign bonus added, a
 * reason required below the quote), how it reads on the timeline and in the mail, and the
 * inspection photos attached with it. The quote itself is made by the valuation guide
 * (valuation/queries.ts quoteFor) and stored on the request (valuation/quote.ts).
 */

export const MAX_INSPECTION_IMAGES = IMAGE_LIMITS.inspectionPerRequest;

export interface CreditTerms {
  base: number;
  bonus: number;
  total: number;
  campaign: RunningCampaign | null;
  reason: string | null;
}

/**
 * The credit an admin's amount becomes: the campaign bonus added (the campaign the customer was
 * quoted, else the best one running), and below the quote a reason is required.
 */
export async function creditTerms(trx: Db, request: ExchangeRequestRow, base: number, reason: string | null): Promise<CreditTerms> {
  const quote = storedQuote(request);
  if (quote && base < quote.estimate && !reason) throw badRequest(creditReasonRequired(quote.estimate, quote.currency), { fields: ['reason'] });
  const campaign = await campaignForCredit(trx, request, base);
  const bonus = bonusOf(campaign, base);
  return { base, bonus, total: base + bonus, campaign, reason: quote && base < quote.estimate ? reason : null };
}

/** The quote as the customer saw it at submission (estimate plus bonus), or null without one: credit below it is an offer. */
export function quotedTotal(request: ExchangeRequestRow): number | null {
  const quote = storedQuote(request);
  return quote ? quote.estimate + quote.bonus : null;
}

/** '₹450 + ₹45 Diwali Trade-in bonus' for the timeline; just the amount without a bonus. */
export function creditBreakdownText(terms: CreditTerms, currency: string): string {
  if (terms.bonus <= 0) return wholeMoney(terms.base, currency);
  return `${wholeMoney(terms.base, currency)} + ${wholeMoney(terms.bonus, currency)} ${campaignBonusName(terms.campaign?.name)}`;
}

/**
 * Attaches the admin's own unattached uploads to the request as inspection photos, in one
 * conditional update (an upload can be taken once).
 */
export async function attachInspectionImages(trx: Db, input: { adminId: string; requestId: string; images: ImageRef[] }): Promise<void> {
  const { images } = input;
  if (images.length === 0) return;
  if (images.length > MAX_INSPECTION_IMAGES) throw badRequest(`You can attach at most ${MAX_INSPECTION_IMAGES} inspection photos`);
  const ids = [...new Set(images.map((i) => i.publicId))];
  const taken = await trx
    .updateTable('request_images')
    .set({ request_id: input.requestId, kind: 'inspection', position: sql`array_position(${sql.val(ids)}::text[], public_id) - 1` })
    .where('public_id', 'in', ids)
    .where('url', 'in', images.map((i) => i.url))
    .where('uploaded_by', '=', input.adminId)
    .where('request_id', 'is', null)
    .returning('public_id')
    .execute();
  if (taken.length !== ids.length) {
    const took = new Set(taken.map((r) => r.public_id));
    throw badRequest(`Image ${ids.find((id) => !took.has(id))} is not one of your uploads`);
  }
}

/** The credit mail's lines about the valuation: the quote, a bonus, the reason for less and the photos. */
export function creditMailLines(request: ExchangeRequestRow, terms: CreditTerms, photos: ImageRef[], publicUrl: string, lang: Language = 'en'): string[] {
  const texts = MAIL_TEXTS[lang].credited;
  const lines: string[] = [];
  const quote = storedQuote(request);
  const currency = request.currency;
  if (quote) lines.push(texts.quoted(wholeMoney(quote.estimate, quote.currency), wholeMoney(terms.base, currency)));
  if (terms.bonus > 0) {
    const campaign = { name: terms.campaign?.name ?? null, bonusName: campaignBonusName(terms.campaign?.name) };
    lines.push(texts.bonus(wholeMoney(terms.total, currency), wholeMoney(terms.bonus, currency), campaign, wholeMoney(terms.base, currency)));
  }
  if (terms.reason) lines.push(texts.below(terms.reason));
  if (photos.length > 0) lines.push(texts.photos(photos.map((p) => new URL(p.url, publicUrl).toString()).join(' ')));
  return lines;
}
