import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';
import type { WarehouseAddress, Warehouse as WarehouseRow, WarehouseSnapshot } from '#api/db/types.ts';
import { AppError, badRequest, conflict, notFound } from '#api/lib/errors.ts';
import { isUuid } from '#api/lib/request-meta.ts';
import { cleanText, containsPattern } from '#api/lib/text.ts';
import { pageOf, totalFromPage, type ListResult, type PageRequest } from '#api/lib/paging.ts';
import type { Warehouse } from '#api/modules/warehouses/model.ts';
import { addressProblem, missingFieldsMessage } from './rules.ts';

export const WAREHOUSE_NOT_FOUND = 'Warehouse not found';

/** A warehouse as validateWarehouse gives it: required fields present, optional ones null when empty. */
export interface ValidWarehouse extends WarehouseAddress {
  isActive: boolean;
}

/** What a warehouse is made of, as the API and the CLI's `warehouses seed` give it: any field may be missing or null. */
export type WarehouseInput = { [Field in keyof ValidWarehouse]?: ValidWarehouse[Field] | null };

/** Required fields in the order the spec lists them; their names are the spec's camelCase names. */
export const REQUIRED_WAREHOUSE_FIELDS = ['name', 'addressLine1', 'city', 'state', 'postalCode', 'country'] as const;

export { missingFieldsMessage };

/**
 * Checks a warehouse: text trimmed, empty optional fields become null, isActive defaults to true.
 * Returns the clean value, or the fields at fault: the required ones missing, or a postal code or
 * phone that does not fit the country (with its `message`).
 */
export function validateWarehouse(input: WarehouseInput): { value: ValidWarehouse } | { missing: string[]; message?: string } {
  const text = (v: unknown) => cleanText(typeof v === 'string' ? v : null);
  const missing = REQUIRED_WAREHOUSE_FIELDS.filter((field) => !text(input[field]));
  if (missing.length > 0) return { missing };
  const problem = addressProblem({ postalCode: text(input.postalCode)!, country: text(input.country)!, contactPhone: text(input.contactPhone) });
  if (problem) return { missing: [problem.field], message: problem.message };
  return {
    value: {
      name: text(input.name)!,
      addressLine1: text(input.addressLine1)!,
      addressLine2: text(input.addressLine2),
      city: text(input.city)!,
      state: text(input.state)!,
      postalCode: text(input.postalCode)!,
      country: text(input.country)!,
      contactPerson: text(input.contactPerson),
      contactPhone: text(input.contactPhone),
      // the spec: only false counts as inactive
      isActive: input.isActive !== false,
    },
  };
}

function validOr400(input: WarehouseInput): ValidWarehouse {
  const result = validateWarehouse(input);
  if ('missing' in result) throw badRequest(result.message ?? missingFieldsMessage(result.missing));
  return result.value;
}

/** A warehouse row's name and address, as an approved request keeps them. */
export function toWarehouseSnapshot(row: WarehouseRow): WarehouseSnapshot {
  return {
    id: row.id,
    name: row.name,
    addressLine1: row.address_line1,
    addressLine2: row.address_line2,
    city: row.city,
    state: row.state,
    postalCode: row.postal_code,
    country: row.country,
    contactPerson: row.contact_person,
    contactPhone: row.contact_phone,
  };
}

export function toWarehouse(row: WarehouseRow): Warehouse {
  return { ...toWarehouseSnapshot(row), isActive: row.is_active };
}

const columns = (w: ValidWarehouse) => ({
  name: w.name,
  address_line1: w.addressLine1,
  address_line2: w.addressLine2,
  city: w.city,
  state: w.state,
  postal_code: w.postalCode,
  country: w.country,
  contact_person: w.contactPerson,
  contact_phone: w.contactPhone,
  is_active: w.isActive,
});

const nameTaken = (name: string) => conflict(`A warehouse named ${name} already exists`);
const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505';

export interface WarehouseFilter extends PageRequest {
  q?: string;
  activeOnly?: boolean;
}

/** GET /api/admin/warehouses: by name; q matches name, city, state or country. */
export async function listWarehouses(db: Db, filter: WarehouseFilter = {}): Promise<ListResult<Warehouse>> {
  let base = db.selectFrom('warehouses');
  if (filter.activeOnly) base = base.where('is_active', '=', true);
  const q = cleanText(filter.q);
  if (q) base = base.where(sql<string>`lower(name || ' ' || city || ' ' || state || ' ' || country)`, 'like', containsPattern(q));
  const page = pageOf(filter);
  let rows = base.selectAll().orderBy(sql`lower(name)`).orderBy('id');
  if (page) rows = rows.limit(page.limit).offset(page.offset);
  const items = await rows.execute();
  // a shop has a few warehouses: the page read almost always gives the total without a count
  const total = totalFromPage(page, items.length) ?? Number((await base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow()).total);
  return { items: items.map(toWarehouse), total };
}

export async function getWarehouse(db: Db, id: string | undefined): Promise<Warehouse> {
  const row = isUuid(id) ? await db.selectFrom('warehouses').selectAll().where('id', '=', id).executeTakeFirst() : undefined;
  if (!row) throw notFound(WAREHOUSE_NOT_FOUND);
  return toWarehouse(row);
}

/** POST /api/admin/warehouses. Names are unique, whatever their case. */
export async function createWarehouse(db: Db, input: WarehouseInput): Promise<Warehouse> {
  const value = validOr400(input);
  const row = await db
    .insertInto('warehouses')
    .values(columns(value))
    .onConflict((oc) => oc.expression(sql`lower(name)`).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!row) throw nameTaken(value.name);
  return toWarehouse(row);
}

/** PUT /api/admin/warehouses/{id}: replaces every field (as POST). Requests keep the address they were approved with. */
export async function updateWarehouse(db: Db, id: string | undefined, input: WarehouseInput): Promise<Warehouse> {
  if (!isUuid(id)) throw notFound(WAREHOUSE_NOT_FOUND);
  const value = validOr400(input);
  try {
    const row = await db
      .updateTable('warehouses')
      .set({ ...columns(value), updated_at: sql`now()` })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw notFound(WAREHOUSE_NOT_FOUND);
    return toWarehouse(row);
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (isUniqueViolation(error)) throw nameTaken(value.name);
    throw error;
  }
}

/** DELETE /api/admin/warehouses/{id}: requests pointing to it keep their snapshot (the reference becomes null). */
export async function deleteWarehouse(db: Db, id: string | undefined): Promise<void> {
  if (!isUuid(id)) throw notFound(WAREHOUSE_NOT_FOUND);
  const deleted = await db.deleteFrom('warehouses').where('id', '=', id).returning('id').executeTakeFirst();
  if (!deleted) throw notFound(WAREHOUSE_NOT_FOUND);
}
