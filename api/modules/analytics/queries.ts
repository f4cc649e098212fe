import { sql, type RawBuilder } from 'kysely';
import type { Db } from '#api/db/connect.ts';
import { preparedMark } from '#api/db/prepared.ts';
import { jsonRows } from '#api/db/json-rows.ts';
import type { Analytics } from './model.ts';
import { TOP_N, bucketOf, bucketStarts, type DateRange } from './rules.ts';
import { readMark } from '#api/db/resilience.ts';

/**
 * The analytics figures from the per-day rollups of migration 012 (days in the shop's time zone, kept
 * by triggers in the transaction of each change), so a range reads at most a few rows per day:
 * requests by the day they were made (cancelled and deleted ones by their events), the ledger by the
 * day of each entry, credited requests by the day of their credit. The median and 90th percentile of
 * time to credit are exact: the hour histogram finds the hour that holds each rank, and the narrow
 * index over (time to credit, credited_at) gives the value at that rank within that hour. A request
 * reads it all in two statements (readRollups, then readRanked) in one snapshot.
 */

const num = (value: unknown) => Number(value ?? 0);
const cents = (amount: number) => Math.round(amount * 100) / 100;
const hours = (seconds: number | null) => (seconds === null ? null : Math.round((seconds / 3600) * 10) / 10);

/** The rows of `query` as one JSON column, in `order` when given (json_agg keeps no order of its own). */
const listOf = (query: RawBuilder<unknown>, order?: RawBuilder<unknown>) =>
  sql`(select coalesce(json_agg(r${order ? sql` order by ${order}` : sql``}), '[]'::json) from (${query}) r)`;

type Ranked = { name: string; credit: string | number; n: string | number };
type Hour = { hour: number; n: string | number };

interface RollupRead {
  zone: string | null;
  received: { day: string; outcome: string; n: number }[] | string;
  credit: { day: string; amount: number | null; bonus: number | null; n: number | null; failed: number | null }[] | string;
  brands: Ranked[] | string;
  page: { name: string; credit: number }[] | string;
  histogram: Hour[] | string;
  lo: Date;
  hi: Date;
}

const PRODUCTS_PAGE = 100;
const SECONDS = sql`extract(epoch from credited_at - created_at)`;

/** Everything a range reads from the rollups, in one statement: a few rows per day of each. */
async function readRollups(db: Db, range: DateRange, options: { timeZone: string; currency: string }) {
  const { timeZone, currency } = options;
  const inRange = sql`day >= ${range.from}::date and day <= ${range.to}::date`;
  const { rows } = await sql<RollupRead>`
    select ${preparedMark('analytics-rollups')} ${readMark} (select zone from analytics_rollup_state) as zone,
      ${listOf(sql`select day::text as day, outcome, sum(n) as n from analytics_requests_daily where ${inRange} group by 1, 2`)} as received,
      ${listOf(sql`
        select day::text as day, sum(amount) filter (where currency = ${currency}) as amount, sum(bonus) filter (where currency = ${currency}) as bonus,
               sum(credits) filter (where currency = ${currency}) as n, sum(failed) as failed
          from analytics_credit_daily where ${inRange} group by 1`)} as credit,
      ${listOf(
        sql`select name, sum(credit) as credit, sum(n) as n from analytics_brands_daily where ${inRange} and currency = ${currency}
             group by name having sum(n) > 0 order by credit desc, name limit ${TOP_N}`,
        sql`r.credit desc, r.name`,
      )} as brands,
      ${listOf(
        sql`select name, credit from analytics_products_total where currency = ${currency} and n > 0 order by credit desc, name limit ${PRODUCTS_PAGE}`,
        sql`r.credit desc, r.name`,
      )} as page,
      ${listOf(sql`select hour, sum(n) as n from analytics_credit_hours where ${inRange} group by hour having sum(n) > 0`, sql`r.hour`)} as histogram,
      (${range.from}::date)::timestamp at time zone ${timeZone} as lo,
      (${range.to}::date + 1)::timestamp at time zone ${timeZone} as hi`.execute(db);
  return rows[0]!;
}

/**
 * The values of time to credit at the given ranks of the range's credited requests: a rank's hour
 * comes from the histogram, and its value is read at its place within that hour off the narrow index.
 */
function rankValuesSql(bounds: { lo: Date; hi: Date }, histogram: Hour[], ranks: number[]) {
  const place = (rank: number) => {
    let before = 0;
    for (const h of histogram) {
      if (rank < before + num(h.n)) return { hour: h.hour, offset: rank - before };
      before += num(h.n);
    }
    throw new Error(`rank ${rank} beyond ${before} credited requests`);
  };
  // one lookup planned once and run per rank (a union of one subquery per rank took a millisecond to plan)
  const places = sql.join(
    ranks.map((rank) => {
      const { hour, offset } = place(rank);
      return sql`(${rank}::integer, ${hour}::integer, ${offset}::integer)`;
    }),
  );
  return sql`
    select v.rank, x.s from (values ${places}) v(rank, hour, skip)
     cross join lateral (
       select ${SECONDS}::float8 as s from exchange_requests
        where credited_at is not null and credited_at >= ${bounds.lo} and credited_at < ${bounds.hi}
          and ${SECONDS} >= v.hour * 3600 and ${SECONDS} < (v.hour + 1) * 3600
        order by ${SECONDS} offset v.skip limit 1) x`;
}

/**
 * What depends on the first read, in a second statement: the top products of the range and the
 * values at the percentile ranks of time to credit (percentile_cont, as PostgreSQL computes it).
 *
 * The top products are exact: a product's credit in a range is at most its credit of all time, so
 * the page of products by all-time credit is summed over the range, and the search ends when the
 * next product cannot reach the fifth found. When the page does not settle it (few credits in the
 * range), the range's products are summed outright.
 */
async function readRanked(db: Db, range: DateRange, currency: string, first: RollupRead) {
  const page = jsonRows(first.page);
  const histogram = jsonRows(first.histogram);
  const credited = histogram.reduce((sum, h) => sum + num(h.n), 0);
  const positions = [0.5, 0.9].map((p) => p * (credited - 1));
  const ranks = credited === 0 ? [] : [...new Set(positions.flatMap((position) => [Math.floor(position), Math.ceil(position)]))];
  const inRange = sql`day >= ${range.from}::date and day <= ${range.to}::date`;
  const { rows } = await sql<{ sums: (Ranked & { upToLast: boolean })[] | string; values: { rank: number; s: number }[] | string }>`
    select ${preparedMark('analytics-ranked')} ${readMark} ${listOf(
      sql`select name, sum(credit) as credit, sum(n) as n, name <= ${page.at(-1)?.name ?? ''}::text as "upToLast" from analytics_products_daily
           where currency = ${currency} and name = any(${page.map((p) => p.name)}::text[]) and ${inRange}
           group by name having sum(n) > 0 order by credit desc, name limit ${TOP_N}`,
      sql`r.credit desc, r.name`,
    )} as sums,
    ${ranks.length === 0 ? sql`'[]'::json` : listOf(rankValuesSql(first, histogram, ranks))} as values`.execute(db);
  const sums = jsonRows(rows[0]!.sums);
  const valueAt = new Map(jsonRows(rows[0]!.values).map((r) => [Number(r.rank), Number(r.s)]));
  const percentile = (position: number) => {
    const [lower, upper] = [Math.floor(position), Math.ceil(position)];
    const value = valueAt.get(lower)!;
    return value + (valueAt.get(upper)! - value) * (position - lower);
  };
  const timing =
    credited === 0
      ? { credited: 0, medianHours: null, p90Hours: null }
      : { credited, medianHours: hours(percentile(positions[0]!)), p90Hours: hours(percentile(positions[1]!)) };

  // a product after the page has at most the page's last credit, and on a tie a later name
  // (names compared by the database, in the collation of its order by)
  const [last, fifth] = [page.at(-1), sums[TOP_N - 1]];
  const settled =
    page.length < PRODUCTS_PAGE ||
    (fifth !== undefined && (num(last!.credit) < num(fifth.credit) || (num(last!.credit) === num(fifth.credit) && fifth.upToLast)));
  if (settled) return { products: sums, timing };
  const all = await sql<Ranked>`
    select ${readMark} name, sum(credit) as credit, sum(n) as n from analytics_products_daily where currency = ${currency} and ${inRange}
     group by name having sum(n) > 0 order by credit desc, name limit ${TOP_N}`.execute(db);
  return { products: all.rows, timing };
}

export async function analyticsFor(db: Db, range: DateRange, options: { timeZone: string; currency: string }): Promise<Analytics> {
  const { timeZone, currency } = options;
  const bucket = bucketOf(range);
  const starts = bucketStarts(range, bucket);
  // one snapshot, so the histogram and the index agree; the rollups are built first where they are
  // not (first use, SHOP_TIME_ZONE changed, a TRUNCATE), and read again
  const read = () =>
    db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const first = await readRollups(trx, range, options);
        return first.zone === timeZone ? { first, ...(await readRanked(trx, range, currency, first)) } : null;
      });
  let snapshot = await read();
  if (!snapshot) {
    await sql`select analytics_rollup_rebuild(${timeZone})`.execute(db);
    snapshot = await read();
    if (!snapshot) throw new Error(`the analytics rollups were not built for ${timeZone}`);
  }
  const { first, products, timing } = snapshot;

  // a day's bucket: the day itself, or the last week start on or before it (starts are sorted; a day is never before the first)
  const startOf = bucket === 'day' ? (day: string) => day : (day: string) => starts.findLast((start) => start <= day)!;
  const receivedBy = new Map<string, number>(starts.map((s) => [s, 0]));
  const outcomes = { approved: 0, declined: 0, cancelled: 0, deleted: 0, open: 0 };
  for (const row of jsonRows(first.received)) {
    const n = num(row.n);
    receivedBy.set(startOf(row.day), (receivedBy.get(startOf(row.day)) ?? 0) + n);
    outcomes[row.outcome as keyof typeof outcomes] += n;
  }
  const creditBy = new Map<string, { amount: number; bonus: number; credits: number }>();
  let failedPushes = 0;
  for (const row of jsonRows(first.credit)) {
    const at = creditBy.get(startOf(row.day)) ?? { amount: 0, bonus: 0, credits: 0 };
    creditBy.set(startOf(row.day), { amount: cents(at.amount + num(row.amount)), bonus: cents(at.bonus + num(row.bonus)), credits: at.credits + num(row.n) });
    failedPushes += num(row.failed);
  }
  const series = starts.map((start) => ({ start, amount: 0, bonus: 0, credits: 0, ...creditBy.get(start) }));
  const decided = outcomes.approved + outcomes.declined;
  const rank = (rows: Ranked[]) => rows.map((r) => ({ name: r.name, credit: num(r.credit), requests: num(r.n) }));
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
    topBrands: rank(jsonRows(first.brands)),
    topProducts: rank(products),
  };
}
