import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';
import type { ExchangeRequestRow, PushStatus } from '#api/db/types.ts';
import { badRequest } from '#api/lib/errors.ts';
import type { ImageRef } from '#api/modules/images/service.ts';
import type { StoredQuote } from './model.ts';
import { campaignForCredit, type QuoteFacts, type RunningCampaign } from './queries.ts';
import { bonusOf, campaignBonusName, creditReasonRequired, wholeMoney } from './rules.ts';

/**
 * The valuation guide's part in a request's life: the quote stored at submission, and at credit
 * time the campaign bonus, the reason a credit is below the quote and the inspection photos.
 */

export const MAX_INSPECTION_IMAGES = 5;

/** The request columns that keep the quote given at submission (all null when the guide had no match). */
export function quoteColumns(facts: QuoteFacts) {
  const q = facts.quote;
  if (!q.eligible || q.estimate === null) return {};
  return { quote_estimate: q.estimate, quote_bonus: q.bonus ?? 0, quote_currency: q.currency, quote_entry_id: facts.entryId, quote_campaign_id: facts.campaignId };
}

export function storedQuote(row: Pick<ExchangeRequestRow, 'quote_estimate' | 'quote_bonus' | 'quote_currency' | 'currency'>): StoredQuote | null {
  if (row.quote_estimate === null) return null;
  return { estimate: Number(row.quote_estimate), bonus: Number(row.quote_bonus ?? 0), currency: row.quote_currency ?? row.currency };
}

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

export interface ValuationDetail {
  creditBreakdown: { base: number; bonus: number; campaignName: string | null } | null;
  inspectionImages: ImageRef[];
}

/**
 * What a detail page adds for the credit, in one statement: how it was made up and where its push to
 * the shop stands (both null before credit), and the inspection photos.
 */
export async function valuationDetailOf(db: Db, requestId: string): Promise<ValuationDetail & { creditPushStatus: PushStatus | null }> {
  const { rows } = await sql<{ credit: { base: number | string; bonus: number | string; campaignName: string | null; pushStatus: PushStatus } | null; photos: ImageRef[] }>`
    select (select json_build_object('base', coalesce(l.base_amount, l.amount), 'bonus', l.bonus_amount, 'campaignName', c.name, 'pushStatus', l.push_status)
              from credit_ledger l left join bonus_campaigns c on c.id = l.campaign_id
             where l.exchange_request_id = ${requestId} and l.type = 'exchange_credit' limit 1) as credit,
           (select coalesce(json_agg(json_build_object('url', i.url, 'publicId', i.public_id) order by i.position), '[]'::json)
              from request_images i where i.request_id = ${requestId} and i.kind = 'inspection') as photos`.execute(db);
  const { credit, photos } = rows[0]!;
  return {
    creditBreakdown: credit ? { base: Number(credit.base), bonus: Number(credit.bonus), campaignName: credit.campaignName } : null,
    inspectionImages: photos,
    creditPushStatus: credit?.pushStatus ?? null,
  };
}

/** The credit mail's lines about the valuation: the quote, a bonus, the reason for less and the photos. */
export function creditMailLines(request: ExchangeRequestRow, terms: CreditTerms, photos: ImageRef[], publicUrl: string): string[] {
  const lines: string[] = [];
  const quote = storedQuote(request);
  const currency = request.currency;
  if (quote) lines.push(`You were quoted ${wholeMoney(quote.estimate, quote.currency)} when you submitted it; after inspection we credited ${wholeMoney(terms.base, currency)}.`);
  if (terms.bonus > 0) {
    lines.push(`Your total of ${wholeMoney(terms.total, currency)} includes a ${wholeMoney(terms.bonus, currency)} ${campaignBonusName(terms.campaign?.name)} on top of ${wholeMoney(terms.base, currency)}.`);
  }
  if (terms.reason) lines.push(`Why the credit is below the quote: ${terms.reason}`);
  if (photos.length > 0) lines.push(`Inspection photos: ${photos.map((p) => new URL(p.url, publicUrl).toString()).join(' ')}`);
  return lines;
}
