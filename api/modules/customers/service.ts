import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';
import type { ShopAddress } from '#api/integrations/shop/types.ts';
import { readCsv, unquoteSpreadsheetValue, type CsvRecord } from '#api/lib/csv.ts';
import { INVALID_EMAIL_MESSAGE, isValidEmail, normalizeEmail } from '#api/lib/email.ts';
import { badRequest } from '#api/lib/errors.ts';
import { stateName } from '#api/modules/warehouses/states.ts';

/** A customer's default address as the directory keeps it (shop_customer_addresses): the shop's, less the name (the customer's own). */
export type CustomerAddress = Omit<ShopAddress, 'name'>;

/** One customer of the shop, as the embedded directory keeps it. */
export interface CustomerInput {
  email: string;
  firstName: string | null;
  lastName: string | null;
  shopCustomerId: string | null;
  /** null: the customer has no address (any held is removed); undefined: leave the held one as it is */
  address?: CustomerAddress | null;
}

export interface RowProblem {
  line: number;
  message: string;
}

export interface ImportReport {
  created: number;
  updated: number;
  unchanged: number;
  problems: RowProblem[];
}

const clean = (value: string | undefined) => {
  const v = unquoteSpreadsheetValue(value).normalize('NFC');
  return v === '' ? null : v;
};

/** The export's default-address columns (Shopify's customer export names them so). */
const ADDRESS_COLUMNS = ['Default Address Address1', 'Default Address Address2', 'Default Address City', 'Default Address Province Code', 'Default Address Zip', 'Default Address Phone'];

/**
 * The row's default address: the Default Address columns, the phone falling back to the customer's
 * Phone, the province code made a state name. Undefined when the file has no address columns at all
 * (an older export: the held address stays), null when this customer's are empty.
 */
function addressFromExportRow(values: Record<string, string>): CustomerAddress | null | undefined {
  if (!ADDRESS_COLUMNS.some((column) => column in values)) return undefined;
  const countryCode = clean(values['Default Address Country Code'])?.toUpperCase() ?? null;
  const address: CustomerAddress = {
    addressLine1: clean(values['Default Address Address1']),
    addressLine2: clean(values['Default Address Address2']),
    city: clean(values['Default Address City']),
    state: stateName(countryCode, clean(values['Default Address Province Code'])),
    postalCode: clean(values['Default Address Zip']),
    countryCode,
    phone: clean(values['Default Address Phone']) ?? clean(values['Phone']),
  };
  // a country alone is no address
  return Object.entries(address).some(([key, v]) => key !== 'countryCode' && v !== null) ? address : null;
}

/** Reads one row of the shop's customer export (Email, First Name, Last Name, Customer ID and the Default Address columns). */
export function customerFromExportRow(record: CsvRecord): CustomerInput | RowProblem {
  const rawEmail = (record.values['Email'] ?? '').trim();
  if (!rawEmail) return { line: record.line, message: 'no email address' };
  if (!isValidEmail(rawEmail)) return { line: record.line, message: `invalid email address "${rawEmail}"` };
  return {
    email: normalizeEmail(rawEmail),
    firstName: clean(record.values['First Name']),
    lastName: clean(record.values['Last Name']),
    shopCustomerId: clean(record.values['Customer ID']),
    address: addressFromExportRow(record.values),
  };
}

/**
 * Inserts new customers and updates changed ones, matched by email (case-insensitive), with their
 * addresses, in one transaction. Returns how many customers were created, updated (a changed
 * address counts) and left as they were.
 */
export async function upsertCustomers(db: Db, customers: CustomerInput[]) {
  if (customers.length === 0) return { created: 0, updated: 0, unchanged: 0 };
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .insertInto('shop_customers')
      .values(
        customers.map((c) => ({
          email: c.email,
          first_name: c.firstName,
          last_name: c.lastName,
          shop_customer_id: c.shopCustomerId,
        })),
      )
      .onConflict((oc) =>
        oc
          .column('email')
          .doUpdateSet((eb) => ({
            first_name: eb.ref('excluded.first_name'),
            last_name: eb.ref('excluded.last_name'),
            shop_customer_id: eb.fn.coalesce(eb.ref('excluded.shop_customer_id'), eb.ref('shop_customers.shop_customer_id')),
            updated_at: new Date(),
          }))
          .where(
            sql<boolean>`(shop_customers.first_name, shop_customers.last_name, shop_customers.shop_customer_id)
              is distinct from (excluded.first_name, excluded.last_name, coalesce(excluded.shop_customer_id, shop_customers.shop_customer_id))`,
          ),
      )
      .returning(['email', sql<boolean>`(xmax = 0)`.as('inserted')])
      .execute();
    const changed = new Set(rows.map((r) => r.email));
    for (const email of await upsertAddresses(trx, customers)) changed.add(email);
    const created = rows.filter((r) => r.inserted).length;
    return { created, updated: changed.size - created, unchanged: customers.length - changed.size };
  });
}

const ADDRESS_FIELDS = ['address_line1', 'address_line2', 'city', 'state', 'postal_code', 'country_code', 'phone'] as const;

/** Writes the customers' addresses where they differ, removes those now empty; returns the emails whose address changed. */
async function upsertAddresses(trx: Db, customers: CustomerInput[]): Promise<string[]> {
  const given = customers.filter((c) => c.address !== undefined);
  if (given.length === 0) return [];
  const ids = await trx.selectFrom('shop_customers').select(['id', 'email']).where('email', 'in', given.map((c) => c.email)).execute();
  const idOf = new Map(ids.map((r) => [r.email, r.id]));
  const emailOf = new Map(ids.map((r) => [r.id, r.email]));
  const changed: string[] = [];
  const withAddress = given.filter((c) => c.address);
  if (withAddress.length > 0) {
    const rows = await trx
      .insertInto('shop_customer_addresses')
      .values(
        withAddress.map(({ email, address: a }) => ({
          customer_id: idOf.get(email)!,
          address_line1: a!.addressLine1,
          address_line2: a!.addressLine2,
          city: a!.city,
          state: a!.state,
          postal_code: a!.postalCode,
          country_code: a!.countryCode,
          phone: a!.phone,
        })),
      )
      .onConflict((oc) =>
        oc
          .column('customer_id')
          .doUpdateSet((eb) => ({ ...Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, eb.ref(`excluded.${f}`)])), updated_at: new Date() }))
          .where(
            sql<boolean>`(${sql.join(ADDRESS_FIELDS.map((f) => sql.ref(`shop_customer_addresses.${f}`)))})
              is distinct from (${sql.join(ADDRESS_FIELDS.map((f) => sql.ref(`excluded.${f}`)))})`,
          ),
      )
      .returning('customer_id')
      .execute();
    changed.push(...rows.map((r) => emailOf.get(r.customer_id)!));
  }
  const without = given.filter((c) => c.address === null).map((c) => idOf.get(c.email)!);
  if (without.length > 0) {
    const gone = await trx.deleteFrom('shop_customer_addresses').where('customer_id', 'in', without).returning('customer_id').execute();
    changed.push(...gone.map((r) => emailOf.get(r.customer_id)!));
  }
  return changed;
}

export async function addCustomer(db: Db, input: { email: string; name?: string; shopCustomerId?: string }) {
  if (!isValidEmail(input.email)) throw badRequest(INVALID_EMAIL_MESSAGE);
  const [firstName, ...rest] = (input.name ?? '').trim().split(/\s+/);
  const result = await upsertCustomers(db, [
    {
      email: normalizeEmail(input.email),
      firstName: firstName || null,
      lastName: rest.join(' ') || null,
      shopCustomerId: input.shopCustomerId?.trim() || null,
    },
  ]);
  return result.created ? 'created' : result.updated ? 'updated' : 'unchanged';
}

/**
 * Imports the shop's customer export: keeps every good row, reports each bad one with its line.
 * The same email twice (in any case) is one customer: the first row wins, the repeat is reported.
 */
export async function importCustomerExport(
  db: Db,
  source: string | { path: string },
  options: { dryRun?: boolean; batchSize?: number; onProgress?: (rowsRead: number) => void } = {},
): Promise<ImportReport> {
  const report: ImportReport = { created: 0, updated: 0, unchanged: 0, problems: [] };
  const firstLineOf = new Map<string, number>();
  const idFirstLine = new Map<string, number>();
  let batch: (CustomerInput & { line: number })[] = [];
  let rowsRead = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    // A Customer ID already held by another email cannot be given to this one too.
    const ids = batch.map((c) => c.shopCustomerId).filter((id): id is string => id !== null);
    if (ids.length > 0) {
      const taken = await db.selectFrom('shop_customers').select(['shop_customer_id', 'email']).where('shop_customer_id', 'in', ids).execute();
      const owner = new Map(taken.map((t) => [t.shop_customer_id, t.email]));
      batch = batch.filter((c) => {
        const holder = c.shopCustomerId ? owner.get(c.shopCustomerId) : undefined;
        if (!holder || holder === c.email) return true;
        report.problems.push({ line: c.line, message: `Customer ID ${c.shopCustomerId} already belongs to ${holder}` });
        return false;
      });
    }
    if (options.dryRun) {
      const existing = await db.selectFrom('shop_customers').select('email').where('email', 'in', batch.map((c) => c.email)).execute();
      report.created += batch.length - existing.length;
      report.unchanged += existing.length;
    } else {
      const result = await upsertCustomers(db, batch.map(({ line: _line, ...customer }) => customer));
      report.created += result.created;
      report.updated += result.updated;
      report.unchanged += result.unchanged;
    }
    batch = [];
  };

  for await (const record of readCsv(source)) {
    rowsRead++;
    if (record.line === 2 && !('Email' in record.values)) {
      throw badRequest('The file has no Email column: expected the shop\'s customer export (Customer ID, First Name, Last Name, Email, Default Address …).');
    }
    const customer = customerFromExportRow(record);
    if ('message' in customer) {
      report.problems.push(customer);
      continue;
    }
    const seen = firstLineOf.get(customer.email);
    if (seen !== undefined) {
      report.problems.push({ line: record.line, message: `same email as line ${seen} (${customer.email}): one customer, kept line ${seen}` });
      continue;
    }
    const idSeen = customer.shopCustomerId ? idFirstLine.get(customer.shopCustomerId) : undefined;
    if (idSeen !== undefined) {
      report.problems.push({ line: record.line, message: `Customer ID ${customer.shopCustomerId} is also on line ${idSeen} with another email` });
      continue;
    }
    firstLineOf.set(customer.email, record.line);
    if (customer.shopCustomerId) idFirstLine.set(customer.shopCustomerId, record.line);
    batch.push({ ...customer, line: record.line });
    if (batch.length >= (options.batchSize ?? 500)) {
      await flush();
      options.onProgress?.(rowsRead);
    }
  }
  await flush();
  options.onProgress?.(rowsRead);
  report.problems.sort((a, b) => a.line - b.line);
  return report;
}

export async function listCustomers(db: Db, options: { search?: string; limit?: number } = {}) {
  let query = db
    .selectFrom('shop_customers')
    .leftJoin('shop_customer_addresses as a', 'a.customer_id', 'shop_customers.id')
    .select(['email', 'first_name', 'last_name', 'shop_customer_id', 'created_at'])
    .select(['a.address_line1', 'a.address_line2', 'a.city', 'a.state', 'a.postal_code', 'a.country_code', 'a.phone', 'a.customer_id as address_of'])
    .orderBy('email')
    .limit(options.limit ?? 100);
  if (options.search) {
    const like = `%${options.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb('email', 'like', like),
        eb(sql`lower(coalesce(first_name, '') || ' ' || coalesce(last_name, ''))`, 'like', like),
      ]),
    );
  }
  const rows = await query.execute();
  return rows.map(({ address_line1, address_line2, city, state, postal_code, country_code, phone, address_of, ...customer }) => ({
    ...customer,
    address: address_of
      ? ({ addressLine1: address_line1, addressLine2: address_line2, city, state, postalCode: postal_code, countryCode: country_code, phone } satisfies CustomerAddress)
      : null,
  }));
}
