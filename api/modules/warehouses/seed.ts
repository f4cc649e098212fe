import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';
import { readCsv, unquoteSpreadsheetValue } from '#api/lib/csv.ts';
import { badRequest } from '#api/lib/errors.ts';
import { WarehouseBody, type Warehouse } from '#api/modules/warehouses/model.ts';
import { createWarehouse, missingFieldsMessage, toWarehouse, updateWarehouse, validateWarehouse, type ValidWarehouse, type WarehouseInput } from './service.ts';

/**
 * Seeding warehouses from a file (`swappoints warehouses seed`): a JSON array or a CSV with the
 * warehouse fields. Every row passes the API's own checks (the WarehouseBody schema with its
 * message, then the service's required fields), so a row the API would refuse is a bad row here,
 * with the same message. Good rows are matched to existing warehouses by name, whatever its case:
 * new ones are created, changed ones updated, the rest left alone, so a second run changes nothing.
 */

const FIELDS = ['name', 'addressLine1', 'addressLine2', 'city', 'state', 'postalCode', 'country', 'contactPerson', 'contactPhone', 'isActive'] as const;
type Field = (typeof FIELDS)[number];

/** One row of the file: its line (and for JSON its index in the array) and what it holds. */
export interface SeedRow {
  line: number;
  index?: number;
  input: unknown;
}

export interface SeedProblem {
  line: number;
  /** the row's position in a JSON array, from 0 */
  index?: number;
  fields: string[];
  message: string;
}

export interface SeedReport {
  created: string[];
  updated: { name: string; fields: string[] }[];
  unchanged: string[];
  problems: SeedProblem[];
}

const normalizeKey = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');
const FIELD_BY_KEY = new Map<string, Field>(FIELDS.map((f) => [normalizeKey(f), f]));

/** The line each top-level element of a JSON array starts on (the text is known to be valid JSON). */
export function jsonArrayElementLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let awaiting = false;
  for (const c of text) {
    if (c === '\n') line++;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n' || c === '\uFEFF') continue;
    if (depth === 1 && awaiting && c !== ']') {
      lines.push(line);
      awaiting = false;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      depth++;
      if (depth === 1) awaiting = true;
    } else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 1) awaiting = true;
  }
  return lines;
}

function readJsonRows(text: string, file: string): SeedRow[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw badRequest(`${file} is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!Array.isArray(parsed)) throw badRequest(`${file} must hold a JSON array of warehouses`);
  const lines = jsonArrayElementLines(text);
  return parsed.map((input, index) => ({ line: lines[index] ?? 1, index, input }));
}

/** A CSV cell as the API would get it: empty is absent, isActive true/false is a boolean (anything else stays text and is refused). */
function csvInput(values: Record<string, string>): WarehouseInput | Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(values)) {
    const field = FIELD_BY_KEY.get(normalizeKey(key));
    if (!field) continue; // other columns are dropped, as the API drops extra properties
    const value = unquoteSpreadsheetValue(raw);
    if (value === '') continue;
    input[field] = field === 'isActive' ? ({ true: true, false: false } as Record<string, boolean>)[value.toLowerCase()] ?? value : value;
  }
  return input;
}

async function readCsvRows(path: string): Promise<SeedRow[]> {
  const rows: SeedRow[] = [];
  for await (const record of readCsv({ path })) rows.push({ line: record.line, input: csvInput(record.values) });
  return rows;
}

/** Reads a warehouses file: JSON when it ends in .json (or starts with `[`), CSV otherwise. */
export async function readWarehouseFile(path: string, displayName = path): Promise<SeedRow[]> {
  const ext = extname(path).toLowerCase();
  if (ext === '.csv') return readCsvRows(path);
  const text = readFileSync(path, 'utf8');
  if (ext === '.json' || text.replace(/^\uFEFF/, '').trimStart().startsWith('[')) return readJsonRows(text, displayName);
  return readCsvRows(path);
}

/** One row checked as POST /api/admin/warehouses checks a body: its schema first, then the required fields. */
export function checkWarehouseRow(input: unknown): { value: ValidWarehouse } | { fields: string[]; message: string } {
  const errors = [...Value.Errors(WarehouseBody, input)];
  if (errors.length > 0) {
    const fields = [...new Set(errors.map((e) => e.path.split('/')[1] ?? '').filter(Boolean))];
    const message = (errors[0]!.schema as { error?: unknown }).error ?? (WarehouseBody as { error?: unknown }).error;
    return { fields, message: typeof message === 'string' ? message : errors[0]!.message };
  }
  const result = validateWarehouse(input as WarehouseInput);
  if ('missing' in result) return { fields: result.missing, message: result.message ?? missingFieldsMessage(result.missing) };
  return { value: result.value };
}

/** The fields of `existing` that `value` would change. */
function changedFields(existing: Warehouse, value: ValidWarehouse): string[] {
  return FIELDS.filter((f) => existing[f] !== value[f]);
}

/**
 * Validates every row and creates or updates the good ones by name (case-insensitive), all in one
 * transaction; with dryRun nothing is written and the report says what would be done.
 */
export async function seedWarehouses(db: Db, rows: SeedRow[], options: { dryRun?: boolean } = {}): Promise<SeedReport> {
  const report: SeedReport = { created: [], updated: [], unchanged: [], problems: [] };
  const good: { row: SeedRow; value: ValidWarehouse }[] = [];
  const seen = new Map<string, number>();
  for (const row of rows) {
    const where = { line: row.line, ...(row.index === undefined ? {} : { index: row.index }) };
    const checked = checkWarehouseRow(row.input);
    if (!('value' in checked)) {
      report.problems.push({ ...where, ...checked });
      continue;
    }
    const key = checked.value.name.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) {
      report.problems.push({ ...where, fields: ['name'], message: `The name ${checked.value.name} is used again (first on line ${first}); names are unique, whatever their case` });
      continue;
    }
    seen.set(key, row.line);
    good.push({ row, value: checked.value });
  }
  if (good.length === 0) return report;

  const apply = async (trx: Db) => {
    const existing = await trx
      .selectFrom('warehouses')
      .selectAll()
      .where(sql<string>`lower(name)`, 'in', good.map((g) => g.value.name.toLowerCase()))
      .execute();
    const byName = new Map(existing.map((w) => [w.name.toLowerCase(), w]));
    for (const { value } of good) {
      const current = byName.get(value.name.toLowerCase());
      if (!current) {
        if (!options.dryRun) await createWarehouse(trx, value);
        report.created.push(value.name);
        continue;
      }
      const fields = changedFields(toWarehouse(current), value);
      if (fields.length === 0) {
        report.unchanged.push(value.name);
        continue;
      }
      if (!options.dryRun) await updateWarehouse(trx, current.id, value);
      report.updated.push({ name: value.name, fields });
    }
  };
  if (options.dryRun) await apply(db);
  else await db.transaction().execute(apply);
  return report;
}
