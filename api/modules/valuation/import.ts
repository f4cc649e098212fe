import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';
import { readCsv, unquoteSpreadsheetValue } from '#api/lib/csv.ts';
import { badRequest } from '#api/lib/errors.ts';
import { jsonArrayElementLines, type SeedProblem, type SeedRow } from '#api/modules/warehouses/seed.ts';
import { validateEntry, type EntryInput, type ValidEntry } from './service.ts';

/**
 * `swappoints valuation import FILE`: guide entries from a CSV (header brand,model,name,baseValue
 * and an optional active) or a JSON array of the same fields. Rows are checked as the API checks
 * an entry; good rows create or update the entry of the same brand + model (whatever the case),
 * so importing the same file twice changes nothing.
 */

export interface ImportReport {
  created: string[];
  updated: { entry: string; fields: string[] }[];
  unchanged: string[];
  problems: SeedProblem[];
}

const KEYS: Record<string, keyof EntryInput> = { brand: 'brand', model: 'model', name: 'name', basevalue: 'baseValue', active: 'isActive', isactive: 'isActive' };

function fromCsv(values: Record<string, string>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(values)) {
    const field = KEYS[key.toLowerCase().replace(/[^a-z]/g, '')];
    const value = unquoteSpreadsheetValue(raw);
    if (!field || value === '') continue;
    input[field] = field === 'isActive' ? (({ true: true, false: false, yes: true, no: false }) as Record<string, boolean>)[value.toLowerCase()] ?? value : value;
  }
  return input;
}

function fromJson(item: unknown): unknown {
  if (!item || typeof item !== 'object' || Array.isArray(item)) return item;
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(item)) {
    const field = KEYS[key.toLowerCase().replace(/[^a-z]/g, '')];
    if (field) input[field] = value;
  }
  return input;
}

export async function readGuideFile(path: string, displayName = path): Promise<SeedRow[]> {
  const text = readFileSync(path, 'utf8');
  if (extname(path).toLowerCase() === '.json' || text.replace(/^\uFEFF/, '').trimStart().startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch (error) {
      throw badRequest(`${displayName} is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
    }
    if (!Array.isArray(parsed)) throw badRequest(`${displayName} must hold a JSON array of guide entries`);
    const lines = jsonArrayElementLines(text);
    return parsed.map((item, index) => ({ line: lines[index] ?? 1, index, input: fromJson(item) }));
  }
  const rows: SeedRow[] = [];
  for await (const record of readCsv({ path })) rows.push({ line: record.line, input: fromCsv(record.values) });
  return rows;
}

function checkRow(input: unknown): { value: ValidEntry } | { fields: string[]; message: string } {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return { fields: [], message: 'An entry must be an object with brand, model, name and baseValue' };
  const i = input as Record<string, unknown>;
  const wrongType = (['brand', 'model', 'name'] as const).filter((f) => i[f] !== undefined && i[f] !== null && typeof i[f] !== 'string');
  if (wrongType.length > 0) return { fields: wrongType, message: `${wrongType.join(', ')} must be text` };
  if (i.isActive !== undefined && typeof i.isActive !== 'boolean') return { fields: ['active'], message: 'active must be true or false' };
  return validateEntry(i as EntryInput);
}

const label = (v: { brand: string; model: string }) => `${v.brand} ${v.model}`;

export async function importGuide(db: Db, rows: SeedRow[], options: { dryRun?: boolean } = {}): Promise<ImportReport> {
  const report: ImportReport = { created: [], updated: [], unchanged: [], problems: [] };
  const good: ValidEntry[] = [];
  const seen = new Map<string, number>();
  for (const row of rows) {
    const where = { line: row.line, ...(row.index === undefined ? {} : { index: row.index }) };
    const checked = checkRow(row.input);
    if (!('value' in checked)) {
      report.problems.push({ ...where, ...checked });
      continue;
    }
    const key = `${checked.value.brand.toLowerCase()}\u0001${checked.value.model.toLowerCase()}`;
    const first = seen.get(key);
    if (first !== undefined) {
      report.problems.push({ ...where, fields: ['brand', 'model'], message: `${label(checked.value)} is listed again (first on line ${first})` });
      continue;
    }
    seen.set(key, row.line);
    good.push(checked.value);
  }
  if (good.length === 0) return report;

  const apply = async (trx: Db) => {
    const existing = new Map<string, { id: string; brand: string; model: string; name: string; base_value: string; is_active: boolean }>();
    for (let i = 0; i < good.length; i += 1000) {
      const keys = good.slice(i, i + 1000).map((g) => `${g.brand.toLowerCase()}\u0001${g.model.toLowerCase()}`);
      const found = await trx
        .selectFrom('valuation_entries')
        .select(['id', 'brand', 'model', 'name', 'base_value', 'is_active'])
        .where(sql<string>`lower(brand) || chr(1) || lower(model)`, 'in', keys)
        .execute();
      for (const f of found) existing.set(`${f.brand.toLowerCase()}\u0001${f.model.toLowerCase()}`, f);
    }
    for (const v of good) {
      const current = existing.get(`${v.brand.toLowerCase()}\u0001${v.model.toLowerCase()}`);
      if (!current) {
        if (!options.dryRun) await trx.insertInto('valuation_entries').values({ brand: v.brand, model: v.model, name: v.name, base_value: v.baseValue, is_active: v.isActive }).execute();
        report.created.push(label(v));
        continue;
      }
      const fields = [
        current.brand !== v.brand && 'brand',
        current.model !== v.model && 'model',
        current.name !== v.name && 'name',
        Number(current.base_value) !== v.baseValue && 'baseValue',
        current.is_active !== v.isActive && 'active',
      ].filter((f): f is string => Boolean(f));
      if (fields.length === 0) {
        report.unchanged.push(label(v));
        continue;
      }
      if (!options.dryRun) {
        await trx
          .updateTable('valuation_entries')
          .set({ brand: v.brand, model: v.model, name: v.name, base_value: v.baseValue, is_active: v.isActive, updated_at: sql`now()` })
          .where('id', '=', current.id)
          .execute();
      }
      report.updated.push({ entry: label(v), fields });
    }
  };
  if (options.dryRun) await apply(db);
  else await db.transaction().execute(apply);
  return report;
}
