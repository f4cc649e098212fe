import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';
import { readCsv, unquoteSpreadsheetValue, type CsvRecord } from '#api/lib/csv.ts';
import { INVALID_EMAIL_MESSAGE, isValidEmail, normalizeEmail } from '#api/lib/email.ts';
import { badRequest } from '#api/lib/errors.ts';

/** One customer of the shop, as the embedded directory keeps it. */
export interface CustomerInput {
  email: string;
  firstName: string | null;
  lastName: string | null;
  shopCustomerId: string | null;
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

/** Reads one row of the shop's customer export (Email, First Name, Last Name, Customer ID columns). */
export function customerFromExportRow(record: CsvRecord): CustomerInput | RowProblem {
  const rawEmail = (record.values['Email'] ?? '').trim();
  if (!rawEmail) return { line: record.line, message: 'no email address' };
  if (!isValidEmail(rawEmail)) return { line: record.line, message: `invalid email address "${rawEmail}"` };
  return {
    email: normalizeEmail(rawEmail),
    firstName: clean(record.values['First Name']),
    lastName: clean(record.values['Last Name']),
    shopCustomerId: clean(record.values['Customer ID']),
  };
}

/**
 * Inserts new customers and updates changed ones, matched by email (case-insensitive).
 * Returns how many rows were created, updated and left as they were.
 */
export async function upsertCustomers(db: Db, customers: CustomerInput[]) {
  if (customers.length === 0) return { created: 0, updated: 0, unchanged: 0 };
  const rows = await db
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
    .returning(sql<boolean>`(xmax = 0)`.as('inserted'))
    .execute();
  const created = rows.filter((r) => r.inserted).length;
  return { created, updated: rows.length - created, unchanged: customers.length - rows.length };
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
      throw badRequest('The file has no Email column: expected the shop\'s customer export (Customer ID, First Name, Last Name, Email).');
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
    .select(['email', 'first_name', 'last_name', 'shop_customer_id', 'created_at'])
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
  return query.execute();
}
