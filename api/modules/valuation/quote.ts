import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';
import { compiledOnce, preparedMark } from '#api/db/prepared.ts';
import type { ExchangeRequestRow, PushStatus } from '#api/db/types.ts';
import type { ImageRef } from '#api/modules/images/service.ts';
import type { StoredQuote } from './model.ts';
import type { QuoteFacts } from './queries.ts';
import { readMark } from '#api/db/resilience.ts';

/**
 * The valuation guide's part in a request's life: the quote stored at submission, and what a detail
 * page shows of how the credit was made up. The credit itself (amount, bonus, campaign) is
 * credit/terms.ts.
 */

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

export interface ValuationDetail {
  creditBreakdown: { base: number; bonus: number; campaignName: string | null } | null;
  inspectionImages: ImageRef[];
}

type ValuationDetailRow = { credit: { base: number | string; bonus: number | string; campaignName: string | null; pushStatus: PushStatus } | null; photos: ImageRef[] };

const valuationDetail = compiledOnce(['requestId'], (_db, { requestId }) => sql<ValuationDetailRow>`
    select ${preparedMark('valuation-detail')} ${readMark} (select json_build_object('base', coalesce(l.base_amount, l.amount), 'bonus', l.bonus_amount, 'campaignName', c.name, 'pushStatus', l.push_status)
              from credit_ledger l left join bonus_campaigns c on c.id = l.campaign_id
             where l.exchange_request_id = ${requestId} and l.type = 'exchange_credit' limit 1) as credit,
           (select coalesce(json_agg(json_build_object('url', i.url, 'publicId', i.public_id) order by i.position), '[]'::json)
              from request_images i where i.request_id = ${requestId} and i.kind = 'inspection') as photos`);

/**
 * What a detail page adds for the credit, in one statement (compiled once, prepared): how it was made up and where its push to
 * the shop stands (both null before credit), and the inspection photos.
 */
export async function valuationDetailOf(db: Db, requestId: string): Promise<ValuationDetail & { creditPushStatus: PushStatus | null }> {
  const [row] = await valuationDetail(db, { requestId });
  const { credit, photos } = row!;
  return {
    creditBreakdown: credit ? { base: Number(credit.base), bonus: Number(credit.bonus), campaignName: credit.campaignName } : null,
    inspectionImages: photos,
    creditPushStatus: credit?.pushStatus ?? null,
  };
}
