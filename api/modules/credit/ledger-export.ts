import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';
import type { PushStatus } from '#api/db/types.ts';
import type { CreditRecord } from '#api/modules/requests/model.ts';
import { historyQuery, toCreditRecord } from './history.ts';

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

function filtered(db: Db, filter: CreditExportFilter, upTo: number) {
  let query = historyQuery(db).where('l.type', '=', 'exchange_credit').where('l.id', '<=', upTo);
  if (filter.since) query = query.where('l.created_at', '>=', filter.since);
  if (filter.until) query = query.where('l.created_at', '<', filter.until);
  if (filter.status) query = query.where('l.push_status', '=', filter.status);
  return query;
}

/** How many rows an export up to `upTo` will give (for a progress bar). */
export async function countCreditExport(db: Db, filter: CreditExportFilter, upTo: number): Promise<number> {
  let query = db.selectFrom('credit_ledger').where('type', '=', 'exchange_credit').where('id', '<=', upTo);
  if (filter.afterId !== undefined) query = query.where('id', '>', filter.afterId);
  if (filter.since) query = query.where('created_at', '>=', filter.since);
  if (filter.until) query = query.where('created_at', '<', filter.until);
  if (filter.status) query = query.where('push_status', '=', filter.status);
  const row = await query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The matching credit records in ledger id order, batch by batch, up to `upTo` (from
 * settledLedgerId). Each batch is a plain query: nothing is held open between batches.
 */
export async function* exportCreditHistory(
  db: Db,
  filter: CreditExportFilter,
  options: { upTo: number; batchSize?: number },
): AsyncGenerator<CreditRecord[]> {
  const batchSize = options.batchSize ?? 2000;
  let cursor = filter.afterId ?? 0;
  for (;;) {
    const rows = await filtered(db, filter, options.upTo).where('l.id', '>', cursor).orderBy('l.id').limit(batchSize).execute();
    if (rows.length === 0) return;
    cursor = Number(rows[rows.length - 1]!.id);
    yield rows.map(toCreditRecord);
    if (rows.length < batchSize) return;
  }
}
