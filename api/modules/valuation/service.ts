import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';
import type { Condition } from '#api/db/types.ts';
import { badRequest, conflict, notFound } from '#api/lib/errors.ts';
import { cleanText } from '#api/lib/text.ts';
import type { Campaign, CampaignBody, GuideEntry, Multiplier, Rule } from './model.ts';
import { listMultipliers, toCampaign, toGuideEntry } from './queries.ts';
import {
  CAMPAIGN_NOT_FOUND,
  CONDITIONS,
  ENTRY_FIELDS_REQUIRED,
  ENTRY_NOT_FOUND,
  entryExists,
  INVALID_BASE_VALUE,
  INVALID_CAMPAIGN_VALUE,
  INVALID_MINIMUM,
  INVALID_PERCENT,
  INVALID_WINDOW,
  LIMITS,
  parseWindowDate,
  RULE_NOT_FOUND,
  RULE_REASON_REQUIRED,
  ruleExists,
  type CampaignKind,
} from './rules.ts';

/** The only writer of the valuation tables: guide entries, multipliers, rules, the minimum and campaigns. */

const isId = (id: unknown): id is string | number => /^\d{1,18}$/.test(String(id ?? ''));

/** A money amount from 0 to the limit, to the cent; null when it is not one. */
export function parseAmount(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(n) || n < 0 || n > LIMITS.money) return null;
  return Math.round(n * 100) / 100;
}

export interface EntryInput {
  brand?: string | null;
  model?: string | null;
  name?: string | null;
  baseValue?: number | string | null;
  isActive?: boolean | null;
}

export interface ValidEntry {
  brand: string;
  model: string;
  name: string;
  baseValue: number;
  isActive: boolean;
}

/** An entry as the API and the import check it: the fields that are missing or wrong, with the message. */
export function validateEntry(input: EntryInput): { value: ValidEntry } | { fields: string[]; message: string } {
  const brand = cleanText(input.brand);
  const model = cleanText(input.model);
  const name = cleanText(input.name);
  const missing = [!brand && 'brand', !model && 'model', !name && 'name', (input.baseValue === undefined || input.baseValue === null || input.baseValue === '') && 'baseValue'].filter(
    (f): f is string => Boolean(f),
  );
  if (missing.length > 0) return { fields: missing, message: ENTRY_FIELDS_REQUIRED(missing) };
  const tooLong = ([['brand', brand, LIMITS.brand], ['model', model, LIMITS.model], ['name', name, LIMITS.name]] as const).find(([, v, max]) => v!.length > max);
  if (tooLong) return { fields: [tooLong[0]], message: `${tooLong[0]} must be at most ${tooLong[2]} characters` };
  const baseValue = parseAmount(input.baseValue);
  if (baseValue === null) return { fields: ['baseValue'], message: INVALID_BASE_VALUE };
  return { value: { brand: brand!, model: model!, name: name!, baseValue, isActive: input.isActive ?? true } };
}

const checked = (input: EntryInput): ValidEntry => {
  const result = validateEntry(input);
  if ('message' in result) throw badRequest(result.message, { fields: result.fields });
  return result.value;
};

const ENTRY_COLUMNS = ['id', 'brand', 'model', 'name', 'base_value', 'is_active', 'updated_at'] as const;

export async function createEntry(db: Db, input: EntryInput): Promise<GuideEntry> {
  const v = checked(input);
  const row = await db
    .insertInto('valuation_entries')
    .values({ brand: v.brand, model: v.model, name: v.name, base_value: v.baseValue, is_active: v.isActive })
    .onConflict((oc) => oc.expression(sql`lower(brand), lower(model)`).doNothing())
    .returning(ENTRY_COLUMNS)
    .executeTakeFirst();
  if (!row) throw conflict(entryExists(v.brand, v.model));
  return toGuideEntry(row);
}

export async function updateEntry(db: Db, id: string | number | undefined, input: EntryInput): Promise<GuideEntry> {
  if (!isId(id)) throw notFound(ENTRY_NOT_FOUND);
  const v = checked(input);
  try {
    const row = await db
      .updateTable('valuation_entries')
      .set({ brand: v.brand, model: v.model, name: v.name, base_value: v.baseValue, is_active: v.isActive, updated_at: sql`now()` })
      .where('id', '=', String(id))
      .returning(ENTRY_COLUMNS)
      .executeTakeFirst();
    if (!row) throw notFound(ENTRY_NOT_FOUND);
    return toGuideEntry(row);
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw conflict(entryExists(v.brand, v.model));
    throw error;
  }
}

export async function deleteEntry(db: Db, id: string | number | undefined): Promise<void> {
  if (!isId(id)) throw notFound(ENTRY_NOT_FOUND);
  const row = await db.deleteFrom('valuation_entries').where('id', '=', String(id)).returning('id').executeTakeFirst();
  if (!row) throw notFound(ENTRY_NOT_FOUND);
}

/** PUT /api/admin/valuation/multipliers: the given conditions' percentages; the rest stay. */
export async function setMultipliers(db: Db, input: Partial<Record<Condition, number>>): Promise<Multiplier[]> {
  const given = CONDITIONS.filter((c) => input[c] !== undefined);
  for (const c of given) if (!(Number.isFinite(input[c]) && input[c]! >= 0 && input[c]! <= 100)) throw badRequest(INVALID_PERCENT);
  if (given.length > 0) {
    await db
      .insertInto('valuation_conditions')
      .values(given.map((condition) => ({ condition, percent: Math.round(input[condition]! * 100) / 100 })))
      .onConflict((oc) => oc.column('condition').doUpdateSet({ percent: (eb) => eb.ref('excluded.percent') }))
      .execute();
  }
  return listMultipliers(db);
}

export async function setMinimum(db: Db, value: unknown): Promise<number> {
  const minimum = parseAmount(value);
  if (minimum === null) throw badRequest(INVALID_MINIMUM);
  await db.updateTable('valuation_settings').set({ minimum_value: minimum }).execute();
  return minimum;
}

export async function addRule(db: Db, input: { brand?: string | null; model?: string | null; reason?: string | null }): Promise<Rule> {
  const brand = cleanText(input.brand);
  const model = cleanText(input.model);
  const reason = cleanText(input.reason);
  if (!brand) throw badRequest(ENTRY_FIELDS_REQUIRED(['brand']), { fields: ['brand'] });
  if (!reason) throw badRequest(RULE_REASON_REQUIRED, { fields: ['reason'] });
  if (brand.length > LIMITS.brand || (model && model.length > LIMITS.model) || reason.length > LIMITS.reason) {
    throw badRequest(`A brand is at most ${LIMITS.brand} characters, a model ${LIMITS.model} and a reason ${LIMITS.reason}.`);
  }
  const row = await db
    .insertInto('valuation_rules')
    .values({ brand, model, reason })
    .onConflict((oc) => oc.expression(sql`lower(brand), lower(coalesce(model, ''))`).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!row) throw conflict(ruleExists(brand, model));
  return { id: Number(row.id), brand: row.brand, model: row.model, reason: row.reason, createdAt: new Date(row.created_at).toISOString() };
}

export async function deleteRule(db: Db, id: string | number | undefined): Promise<void> {
  if (!isId(id)) throw notFound(RULE_NOT_FOUND);
  const row = await db.deleteFrom('valuation_rules').where('id', '=', String(id)).returning('id').executeTakeFirst();
  if (!row) throw notFound(RULE_NOT_FOUND);
}

const CAMPAIGN_COLUMNS = ['id', 'name', 'kind', 'value', 'brand', 'starts_at', 'ends_at'] as const;

export async function addCampaign(db: Db, input: CampaignBody): Promise<Campaign> {
  const name = cleanText(input.name);
  const kind = input.kind as CampaignKind | undefined;
  const startsText = cleanText(input.startsAt);
  const endsText = cleanText(input.endsAt);
  const missing = [!name && 'name', !kind && 'kind', (input.value === undefined || input.value === '') && 'value', !startsText && 'startsAt', !endsText && 'endsAt'].filter(
    (f): f is string => Boolean(f),
  );
  if (missing.length > 0) throw badRequest(ENTRY_FIELDS_REQUIRED(missing), { fields: missing });
  const value = parseAmount(input.value);
  if (value === null || value <= 0 || (kind === 'percent' && value > 100)) throw badRequest(INVALID_CAMPAIGN_VALUE, { fields: ['value'] });
  const startsAt = parseWindowDate(startsText!);
  const endsAt = parseWindowDate(endsText!, true);
  if (!startsAt || !endsAt || endsAt <= startsAt) throw badRequest(INVALID_WINDOW, { fields: ['startsAt', 'endsAt'] });
  const row = await db
    .insertInto('bonus_campaigns')
    .values({ name: name!, kind: kind!, value, brand: cleanText(input.brand), starts_at: startsAt, ends_at: endsAt })
    .returning(CAMPAIGN_COLUMNS)
    .executeTakeFirstOrThrow();
  return toCampaign(row);
}

/** Ends a campaign now (one that already ended keeps its window). */
export async function endCampaign(db: Db, id: string | number | undefined): Promise<Campaign> {
  if (!isId(id)) throw notFound(CAMPAIGN_NOT_FOUND);
  const row = await db
    .updateTable('bonus_campaigns')
    // a campaign that has not started yet gets a window wholly in the past, so it never runs
    .set({ ends_at: sql`least(ends_at, now())`, starts_at: sql`least(starts_at, least(ends_at, now()) - interval '1 millisecond')` })
    .where('id', '=', String(id))
    .returning(CAMPAIGN_COLUMNS)
    .executeTakeFirst();
  if (!row) throw notFound(CAMPAIGN_NOT_FOUND);
  return toCampaign(row);
}
