import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';
import type { PushStatus } from '#api/db/types.ts';
import type { CreditRecord } from '#api/modules/credit/model.ts';
import { ledgerWhere } from './queries.ts';
import { creditRecordQuery, toCreditRecord } from './record.ts';

/**
 * The credit history for scripts (`swappoints credits export`): every exchange credit in ledger id
 * order, read in batches with a keyset cursor on the ledger's identity id (`id > cursor order by
 * id limit n`), so any number of rows is read in constant memory and each batch walks the primary
 * key from where the last one stopped.
 *
 * Nightly exports pass the last id they wrote (`afterId`) and get exactly the rows that are new.
 * Ids are handed out when a row is inserted, not when it commits, so a transaction still open could
 * commit a lower id after a higher one was read, and a cursor past it would skip it forever. The
 * export therefore first waits for every open write on the ledger to end (a SHARE lock, held for
 * an instant) and reads the highest id then: every id up to it is settled, every later insert gets
 * a higher one, and the export stops there.
 *
 * Each row becomes the API's credit record (the CreditRecord shape of GET
 * /api/admin/credit-history, field for field; a test holds the two equal). Its times are written as
 * ISO 8601 text by the database itself (millisecond precision, as JavaScript's toISOString gives),
 * which spares parsing two timestamps per row into dates only to print them again: on a million
 * rows that was a fifth of the export's time.
 */

export interface CreditExportFilter {
  /** only rows with a ledger id above this one */
  afterId?: number;
  /** created at or after */
  since?: Date;
  /** created before */
  until?: Date;
  status?: PushStatus;
}

/** How long the export waits for open ledger writes before giving up (they last milliseconds). */
const SETTLE_TIMEOUT = '10s';

/** The highest ledger id below which no write is still open (0 for an empty ledger). */
export async function settledLedgerId(db: Db): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await sql`set local lock_timeout = ${sql.lit(SETTLE_TIMEOUT)}`.execute(trx);
    await sql`lock table credit_ledger in share mode`.execute(trx);
    const row = await trx
      .selectFrom('credit_ledger')
      .select((eb) => eb.fn.max('id').as('max'))
      .executeTakeFirst();
    return Number(row?.max ?? 0);
  });
}

const isoText = (column: 'l.created_at' | 'l.pushed_at') =>
  sql<string | null>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

function filtered(db: Db, filter: CreditExportFilter, upTo: number) {
  return creditRecordQuery(db)
    .select([isoText('l.created_at').as('created_iso'), isoText('l.pushed_at').as('pushed_iso')])
    .where(ledgerWhere({ since: filter.since, until: filter.until, status: filter.status, upTo }));
}

/** Rows per batch: one query, one write. */
export const EXPORT_BATCH_ROWS = 2000;

/** How many rows an export up to `upTo` will give (for a progress bar). */
export async function countCreditExport(db: Db, filter: CreditExportFilter, upTo: number): Promise<number> {
  const query = db.selectFrom('credit_ledger as l').where(ledgerWhere({ ...filter, upTo }));
  const row = await query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The matching credit records in ledger id order, batch by batch, up to `upTo` (from
 * settledLedgerId). Each batch is a plain query: nothing is held open between batches. The next
 * batch is asked for before this one is handed over, so on PostgreSQL the database reads it
 * while the caller writes this one.
 */
export async function* exportCreditHistory(
  db: Db,
  filter: CreditExportFilter,
  options: { upTo: number; batchSize?: number },
): AsyncGenerator<CreditRecord[]> {
  const batchSize = options.batchSize ?? EXPORT_BATCH_ROWS;
  const fetchAfter = (cursor: number) => filtered(db, filter, options.upTo).where('l.id', '>', cursor).orderBy('l.id').limit(batchSize).execute();
  let next: ReturnType<typeof fetchAfter> | undefined = fetchAfter(filter.afterId ?? 0);
  try {
    while (next) {
      const rows: Awaited<ReturnType<typeof fetchAfter>> = await next;
      next = rows.length < batchSize ? undefined : fetchAfter(Number(rows[rows.length - 1]!.id));
      if (rows.length > 0) yield rows.map((row) => toCreditRecord(row, { createdAt: row.created_iso!, pushedAt: row.pushed_iso }));
    }
  } finally {
    // a caller that stops early (an error while writing) must not leave a query failing unobserved
    await next?.catch(() => {});
  }
}
