import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';
import { jsonRows } from '#api/db/json-rows.ts';
import { compiledOnce, preparedMark } from '#api/db/prepared.ts';
import { CONDITIONS, type Condition } from '#api/db/types.ts';
import { AppError } from '#api/lib/errors.ts';
import { cleanText, containsPattern } from '#api/lib/text.ts';
import type { ListResult } from '#api/lib/paging.ts';
import type { Campaign, CreditGuide, GuideEntry, Multiplier, Quote, Rule } from './model.ts';
import { belowMinimum, bonusOf, estimateOf, INVALID_CONDITION, type CampaignKind } from './rules.ts';
import { readMark } from '#api/db/resilience.ts';

/** Reads of the valuation guide: the quote (one statement), and the lists the admin page shows. */

const iso = (value: Date | string) => new Date(value).toISOString();

export interface QuoteInput {
  brand: string | null | undefined;
  productName: string | null | undefined;
  condition: string | null | undefined;
}

export interface RunningCampaign {
  id: number;
  name: string;
  kind: CampaignKind;
  value: number;
}

/** A quote with what it was made of, for storing on a request. */
export interface QuoteFacts {
  quote: Quote;
  entryId: number | null;
  campaignId: number | null;
}

interface QuoteRow {
  entry_id: string | null;
  entry_brand: string | null;
  entry_model: string | null;
  entry_name: string | null;
  base_value: string | null;
  rule_reason: string | null;
  percent: string | null;
  minimum_value: string | null;
  campaigns: RunningCampaign[] | string | null;
}

const campaignsJson = (list: RunningCampaign[] | string | null): RunningCampaign[] => jsonRows(list).map((c) => ({ ...c, id: Number(c.id), value: Number(c.value) }));

/** The running campaign that adds most to `amount` (the oldest of equals), or null. */
export function bestCampaign(campaigns: RunningCampaign[], amount: number): RunningCampaign | null {
  let best: RunningCampaign | null = null;
  for (const c of campaigns) if (!best || bonusOf(c, amount) > bonusOf(best, amount)) best = c;
  return best;
}

/** Campaigns running now for a brand (or for every brand), as SQL. */
const runningCampaignsSql = (brand: string) => sql<RunningCampaign[]>`(
  select coalesce(json_agg(json_build_object('id', c.id, 'name', c.name, 'kind', c.kind, 'value', c.value) order by c.id), '[]'::json)
    from bonus_campaigns c
   where c.starts_at <= now() and c.ends_at > now() and (c.brand is null or lower(c.brand) = lower(${brand})))`;

/** How many leading characters of a model the match index of migration 013 holds. */
const MATCH_KEY_LENGTH = 6;

/**
 * The active entry of `brand` whose model is found in `product` (lower case), the longest (then the
 * oldest) first. A model found in the name starts with one of the name's substrings of up to
 * MATCH_KEY_LENGTH characters; each is one probe of the index of migration 013 (brand, the model's
 * first characters), which answers the few entries starting so, and only those are tested.
 */
const matchingEntrySql = (brand: string, product: string) => sql<EntryMatchRow>`
  select m.* from (
    select distinct substr(p.name, i, n) as key
      from (select ${product}::text as name) p, generate_series(1, length(p.name)) i, generate_series(1, ${sql.lit(MATCH_KEY_LENGTH)}) n
     where i + n - 1 <= length(p.name)) k
   cross join lateral (
     select id, brand, model, name, base_value from valuation_entries
      where lower(brand) = lower(${brand}) and is_active and left(lower(model), ${sql.lit(MATCH_KEY_LENGTH)}) = k.key
        and strpos(${product}, lower(model)) > 0
      order by length(model) desc, id limit 1) m
   order by length(m.model) desc, m.id limit 1`;

type EntryMatchRow = { id: string; brand: string; model: string; name: string; base_value: string };

const quoteStatement = compiledOnce(['brand', 'product', 'condition'], (_db, { brand, product, condition }) => sql<QuoteRow>`
  select ${preparedMark('quote')} ${readMark} e.id as entry_id, e.brand as entry_brand, e.model as entry_model, e.name as entry_name, e.base_value,
         (select r.reason from valuation_rules r
           where lower(r.brand) = lower(${brand}) and (r.model is null or strpos(${product}, lower(r.model)) > 0)
           order by r.model is null, length(r.model) desc, r.id limit 1) as rule_reason,
         (select percent from valuation_conditions where condition = ${condition}) as percent,
         (select minimum_value from valuation_settings) as minimum_value,
         ${runningCampaignsSql(brand)} as campaigns
    from (select 1) one
    left join lateral (${matchingEntrySql(brand, product)}) e on true`);

/**
 * GET /api/valuation/quote. One statement (compiled once, prepared on each connection): the longest active pattern of the brand found in the
 * product name (matchingEntrySql), the first refusing rule, the condition's multiplier, the minimum
 * and the running campaigns.
 */
export async function quoteFor(db: Db, input: QuoteInput, currency: string): Promise<QuoteFacts> {
  const condition = cleanText(input.condition);
  if (!condition || !CONDITIONS.includes(condition as Condition)) throw new AppError(422, INVALID_CONDITION);
  const brand = cleanText(input.brand) ?? '';
  const product = (cleanText(input.productName) ?? '').toLowerCase();
  const [row] = await quoteStatement(db, { brand, product, condition });
  if (!row) throw new Error('the quote statement returned no row');
  if (row.rule_reason) return { quote: { eligible: false, reason: row.rule_reason }, entryId: null, campaignId: null };
  if (row.entry_id === null) return { quote: { eligible: true, estimate: null, bonus: null, currency, match: null }, entryId: null, campaignId: null };
  const estimate = estimateOf(Number(row.base_value), Number(row.percent ?? 100));
  const minimum = Number(row.minimum_value ?? 0);
  if (estimate < minimum) return { quote: { eligible: false, reason: belowMinimum(minimum, currency) }, entryId: null, campaignId: null };
  const campaign = bestCampaign(campaignsJson(row.campaigns), estimate);
  const entryId = Number(row.entry_id);
  return {
    quote: {
      eligible: true,
      estimate,
      bonus: bonusOf(campaign, estimate),
      currency,
      match: { id: entryId, brand: row.entry_brand!, model: row.entry_model!, name: row.entry_name! },
    },
    entryId,
    campaignId: campaign?.id ?? null,
  };
}

/** The campaign whose bonus a credit gets: the one quoted to the customer, else the best one running now. */
export async function campaignForCredit(db: Db, request: { brand: string; quote_campaign_id: string | null }, amount: number): Promise<RunningCampaign | null> {
  if (request.quote_campaign_id !== null) {
    const quoted = await db.selectFrom('bonus_campaigns').select(['id', 'name', 'kind', 'value']).where('id', '=', request.quote_campaign_id).executeTakeFirst();
    if (quoted) return { id: Number(quoted.id), name: quoted.name, kind: quoted.kind, value: Number(quoted.value) };
  }
  const { rows } = await sql<{ campaigns: RunningCampaign[] | string | null }>`select ${readMark} ${runningCampaignsSql(request.brand)} as campaigns`.execute(db);
  return bestCampaign(campaignsJson(rows[0]?.campaigns ?? null), amount);
}

export async function listMultipliers(db: Db): Promise<Multiplier[]> {
  const rows = await db.selectFrom('valuation_conditions').select(['condition', 'percent']).execute();
  const byCondition = new Map(rows.map((r) => [r.condition, Number(r.percent)]));
  return CONDITIONS.map((condition) => ({ condition, percent: byCondition.get(condition) ?? 100 }));
}

/** What the Assign Credit dialog needs: the request's guide entry, the multipliers and the campaign a credit would get. */
export async function creditGuideFor(
  db: Db,
  request: { brand: string; product_name: string; quote_entry_id: string | null; quote_campaign_id: string | null; quote_estimate: string | null },
): Promise<CreditGuide> {
  const entry = request.quote_entry_id
    ? await db.selectFrom('valuation_entries').select(['id', 'brand', 'model', 'name', 'base_value']).where('id', '=', request.quote_entry_id).executeTakeFirst()
    : (await matchingEntrySql(request.brand, request.product_name.toLowerCase()).execute(db)).rows[0];
  const [multipliers, campaign] = await Promise.all([
    listMultipliers(db),
    campaignForCredit(db, request, Number(request.quote_estimate ?? 0) || 1),
  ]);
  return {
    match: entry ? { id: Number(entry.id), brand: entry.brand, model: entry.model, name: entry.name, baseValue: Number(entry.base_value) } : null,
    multipliers,
    campaign,
  };
}

type EntryRow = { id: string; brand: string; model: string; name: string; base_value: string; is_active: boolean; updated_at: Date };

export const toGuideEntry = (r: EntryRow): GuideEntry => ({
  id: Number(r.id),
  brand: r.brand,
  model: r.model,
  name: r.name,
  baseValue: Number(r.base_value),
  isActive: r.is_active,
  updatedAt: iso(r.updated_at),
});

/** The guide by brand and model; q searches brand, model and name. */
export async function listEntries(db: Db, filter: { q?: string; page?: number; pageSize?: number } = {}): Promise<ListResult<GuideEntry>> {
  let base = db.selectFrom('valuation_entries');
  const q = cleanText(filter.q);
  if (q) base = base.where(sql<string>`lower(brand || ' ' || model || ' ' || name)`, 'like', containsPattern(q));
  const pageSize = filter.pageSize ?? 50;
  const offset = ((filter.page ?? 1) - 1) * pageSize;
  const [rows, count] = await Promise.all([
    base
      .select(['id', 'brand', 'model', 'name', 'base_value', 'is_active', 'updated_at'])
      .orderBy(sql`lower(brand)`)
      .orderBy(sql`lower(model)`)
      .limit(pageSize)
      .offset(offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toGuideEntry), total: Number(count.n) };
}

export async function listRules(db: Db): Promise<Rule[]> {
  const rows = await db.selectFrom('valuation_rules').selectAll().orderBy(sql`lower(brand)`).orderBy('id').execute();
  return rows.map((r) => ({ id: Number(r.id), brand: r.brand, model: r.model, reason: r.reason, createdAt: iso(r.created_at) }));
}

export async function getMinimum(db: Db): Promise<number> {
  const row = await db.selectFrom('valuation_settings').select('minimum_value').executeTakeFirst();
  return Number(row?.minimum_value ?? 0);
}

type CampaignRow = { id: string; name: string; kind: CampaignKind; value: string; brand: string | null; starts_at: Date; ends_at: Date };

export function toCampaign(r: CampaignRow, now = Date.now()): Campaign {
  const startsAt = new Date(r.starts_at).getTime();
  const endsAt = new Date(r.ends_at).getTime();
  return {
    id: Number(r.id),
    name: r.name,
    kind: r.kind,
    value: Number(r.value),
    brand: r.brand,
    startsAt: iso(r.starts_at),
    endsAt: iso(r.ends_at),
    running: startsAt <= now && now < endsAt,
  };
}

/** Every campaign, the latest to end first. */
export async function listCampaigns(db: Db): Promise<Campaign[]> {
  const rows = await db.selectFrom('bonus_campaigns').select(['id', 'name', 'kind', 'value', 'brand', 'starts_at', 'ends_at']).orderBy('ends_at', 'desc').orderBy('id', 'desc').execute();
  const now = Date.now();
  return rows.map((r) => toCampaign(r, now));
}
