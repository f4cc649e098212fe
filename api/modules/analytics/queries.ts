import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';
import type { Analytics } from './model.ts';
import { TOP_N, bucketOf, bucketStarts, type DateRange } from './rules.ts';

/**
 * The analytics figures from the per-day rollups of migration 012 (days in the shop's time zone, kept
 * by triggers in the transaction of each change), so a range reads at most a few rows per day:
 * requests by the day they were made (cancelled and deleted ones by their events), the ledger by the
 * day of each entry, credited requests by the day of their credit. The median and 90th percentile of
 * time to credit are exact: the hour histogram finds the hour that holds each rank, and the narrow
 * index over (time to credit, credited_at) gives the value at that rank within that hour.
 */

const num = (value: unknown) => Number(value ?? 0);
const cents = (amount: number) => Math.round(amount * 100) / 100;
const hours = (seconds: number | null) => (seconds === null ? null : Math.round((seconds / 3600) * 10) / 10);

interface Bounds {
  lo: Date;
  hi: Date;
}

async function boundsOf(db: Db, range: DateRange, timeZone: string): Promise<Bounds> {
  const { rows } = await sql<Bounds>`
    select (${range.from}::date)::timestamp at time zone ${timeZone} as lo,
           (${range.to}::date + 1)::timestamp at time zone ${timeZone} as hi`.execute(db);
  return rows[0]!;
}

/** Builds the rollups for the shop's zone when they are not (first use, SHOP_TIME_ZONE changed, a TRUNCATE). */
async function ensureRollup(db: Db, timeZone: string) {
  const { rows } = await sql<{ zone: string | null }>`select zone from analytics_rollup_state`.execute(db);
  if (rows[0]?.zone !== timeZone) await sql`select analytics_rollup_rebuild(${timeZone})`.execute(db);
}

const SECONDS = sql`extract(epoch from credited_at - created_at)`;

/** percentile_cont over the credited requests of the range, as PostgreSQL computes it, read rank by rank. */
async function timeToCredit(db: Db, bounds: Bounds, histogram: { hour: number; n: string }[]) {
  const total = histogram.reduce((sum, h) => sum + num(h.n), 0);
  if (total === 0) return { credited: 0, medianHours: null, p90Hours: null };
  // where each rank falls: its hour and its place within that hour
  const place = (rank: number) => {
    let before = 0;
    for (const h of histogram) {
      if (rank < before + num(h.n)) return { hour: h.hour, offset: rank - before };
      before += num(h.n);
    }
    throw new Error(`rank ${rank} beyond ${total} credited requests`);
  };
  const positions = [0.5, 0.9].map((p) => p * (total - 1));
  const ranks = [...new Set(positions.flatMap((position) => [Math.floor(position), Math.ceil(position)]))];
  // every rank's value in one statement
  const { rows } = await sql<{ rank: number; s: number }>`${sql.join(
    ranks.map((rank) => {
      const { hour, offset } = place(rank);
      return sql`(select ${rank}::integer as rank, ${SECONDS}::float8 as s from exchange_requests
           where credited_at is not null and credited_at >= ${bounds.lo} and credited_at < ${bounds.hi}
             and ${SECONDS} >= ${hour * 3600} and ${SECONDS} < ${(hour + 1) * 3600}
           order by ${SECONDS} offset ${offset} limit 1)`;
    }),
    sql` union all `,
  )}`.execute(db);
  const valueAt = new Map(rows.map((r) => [Number(r.rank), Number(r.s)]));
  const percentile = (position: number) => {
    const [lower, upper] = [Math.floor(position), Math.ceil(position)];
    const first = valueAt.get(lower)!;
    return first + (valueAt.get(upper)! - first) * (position - lower);
  };
  return { credited: total, medianHours: hours(percentile(positions[0]!)), p90Hours: hours(percentile(positions[1]!)) };
}

type Ranked = { name: string; credit: string; n: string };
const PRODUCTS_PAGE = 100;

/**
 * The top products of a range, exactly: a product's credit in a range is at most its credit of all
 * time, so products are read in that order and the search ends when the next one cannot reach the
 * fifth found. When the first page does not settle it (few credits in the range), the range's
 * products are summed outright.
 */
async function topProducts(db: Db, range: DateRange, currency: string): Promise<Ranked[]> {
  const inRange = sql`day >= ${range.from}::date and day <= ${range.to}::date`;
  const { rows: page } = await sql<{ name: string; credit: string }>`
    select name, credit from analytics_products_total where currency = ${currency} and n > 0
     order by credit desc, name limit ${PRODUCTS_PAGE}`.execute(db);
  const sums = await sql<Ranked & { upToLast: boolean }>`
    select name, sum(credit) as credit, sum(n) as n, name <= ${page.at(-1)?.name ?? ''}::text as "upToLast" from analytics_products_daily
     where currency = ${currency} and name = any(${page.map((p) => p.name)}::text[]) and ${inRange}
     group by name having sum(n) > 0 order by credit desc, name limit ${TOP_N}`.execute(db);
  // a product after the page has at most the page's last credit, and on a tie a later name
  const [last, fifth] = [page.at(-1), sums.rows[TOP_N - 1]];
  // (names compared by the database, in the collation of its order by)
  const settled =
    page.length < PRODUCTS_PAGE ||
    (fifth !== undefined && (num(last!.credit) < num(fifth.credit) || (num(last!.credit) === num(fifth.credit) && fifth.upToLast)));
  if (settled) return sums.rows.map(({ name, credit, n }) => ({ name, credit, n }));
  const all = await sql<Ranked>`
    select name, sum(credit) as credit, sum(n) as n from analytics_products_daily where currency = ${currency} and ${inRange}
     group by name having sum(n) > 0 order by credit desc, name limit ${TOP_N}`.execute(db);
  return all.rows;
}

export async function analyticsFor(db: Db, range: DateRange, options: { timeZone: string; currency: string }): Promise<Analytics> {
  const { timeZone, currency } = options;
  const bucket = bucketOf(range);
  const starts = bucketStarts(range, bucket);
  await ensureRollup(db, timeZone);
  // one snapshot, so the histogram and the index agree
  const { received, credit, brands, products, timing } = await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const inRange = sql`day >= ${range.from}::date and day <= ${range.to}::date`;
      const [received, credit, brands, products, histogram, bounds] = await Promise.all([
        sql<{ day: string; outcome: string; n: string }>`
          select day::text as day, outcome, sum(n) as n from analytics_requests_daily where ${inRange} group by 1, 2`.execute(trx),
        sql<{ day: string; amount: string; bonus: string; n: string; failed: string }>`
          select day::text as day, sum(amount) filter (where currency = ${currency}) as amount, sum(bonus) filter (where currency = ${currency}) as bonus,
                 sum(credits) filter (where currency = ${currency}) as n, sum(failed) as failed
            from analytics_credit_daily where ${inRange} group by 1`.execute(trx),
        sql<{ name: string; credit: string; n: string }>`
          select name, sum(credit) as credit, sum(n) as n from analytics_brands_daily where ${inRange} and currency = ${currency}
           group by name having sum(n) > 0 order by credit desc, name limit ${TOP_N}`.execute(trx),
        topProducts(trx, range, currency),
        sql<{ hour: number; n: string }>`
          select hour, sum(n) as n from analytics_credit_hours where ${inRange} group by hour having sum(n) > 0 order by hour`.execute(trx),
        boundsOf(trx, range, timeZone),
      ]);
      return { received, credit, brands, products: { rows: products }, timing: await timeToCredit(trx, bounds, histogram.rows) };
    });

  // a day's bucket: the last start on or before it (starts are sorted; a day is never before the first)
  const startOf = (day: string) => starts.findLast((start) => start <= day)!;
  const receivedBy = new Map<string, number>(starts.map((s) => [s, 0]));
  const outcomes = { approved: 0, declined: 0, cancelled: 0, deleted: 0, open: 0 };
  for (const row of received.rows) {
    const n = num(row.n);
    receivedBy.set(startOf(row.day), (receivedBy.get(startOf(row.day)) ?? 0) + n);
    outcomes[row.outcome as keyof typeof outcomes] += n;
  }
  const creditBy = new Map<string, { amount: number; bonus: number; credits: number }>();
  let failedPushes = 0;
  for (const row of credit.rows) {
    const at = creditBy.get(startOf(row.day)) ?? { amount: 0, bonus: 0, credits: 0 };
    creditBy.set(startOf(row.day), { amount: cents(at.amount + num(row.amount)), bonus: cents(at.bonus + num(row.bonus)), credits: at.credits + num(row.n) });
    failedPushes += num(row.failed);
  }
  const series = starts.map((start) => ({ start, amount: 0, bonus: 0, credits: 0, ...creditBy.get(start) }));
  const decided = outcomes.approved + outcomes.declined;
  const rank = (rows: { name: string; credit: string; n: string }[]) => rows.map((r) => ({ name: r.name, credit: num(r.credit), requests: num(r.n) }));
  return {
    from: range.from,
    to: range.to,
    timeZone,
    currency,
    bucket,
    credit: {
      total: series.reduce((sum, s) => sum + s.amount, 0),
      bonus: series.reduce((sum, s) => sum + s.bonus, 0),
      credits: series.reduce((sum, s) => sum + s.credits, 0),
      failedPushes,
      series,
    },
    requests: {
      received: [...receivedBy.values()].reduce((a, b) => a + b, 0),
      ...outcomes,
      approvalRate: decided === 0 ? null : Math.round((outcomes.approved / decided) * 1000) / 1000,
      series: starts.map((start) => ({ start, received: receivedBy.get(start) ?? 0 })),
    },
    timeToCredit: timing,
    topBrands: rank(brands.rows),
    topProducts: rank(products.rows),
  };
}
