/**
 * The analytics date range, shared by the API, the admin page and the CLI (plain TypeScript).
 * Dates are calendar days in the shop's time zone; `to` is included.
 */

export const RANGE_PRESETS = [7, 30, 90] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
export const DEFAULT_PRESET: RangePreset = 30;
/** The longest range one request may ask for. */
export const MAX_RANGE_DAYS = 366;
/** Ranges up to this many days chart by day; longer ones by week (weeks start on Monday). */
export const DAILY_UP_TO_DAYS = 45;
/** How many brands and products the top lists show. */
export const TOP_N = 5;

export const INVALID_DATE = 'from and to must be dates like 2026-11-22';
export const RANGE_BACKWARDS = 'from must not be after to';
export const RANGE_TOO_LONG = `The range must be at most ${MAX_RANGE_DAYS} days`;

const DAY_MS = 86_400_000;

export function isDate(text: string | undefined | null): text is string {
  if (!text || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

export function addDays(date: string, days: number): string {
  return new Date(new Date(`${date}T00:00:00Z`).getTime() + days * DAY_MS).toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((new Date(`${to}T00:00:00Z`).getTime() - new Date(`${from}T00:00:00Z`).getTime()) / DAY_MS);
}

export { todayIn } from '#api/lib/days.ts';

export interface DateRange {
  from: string;
  to: string;
}

/** The last `days` days up to and including today. */
export function presetRange(days: number, today: string): DateRange {
  return { from: addDays(today, -(days - 1)), to: today };
}

/** Checks a range; returns the problem, or null. */
export function rangeProblem(range: DateRange): string | null {
  if (!isDate(range.from) || !isDate(range.to)) return INVALID_DATE;
  if (range.from > range.to) return RANGE_BACKWARDS;
  if (daysBetween(range.from, range.to) + 1 > MAX_RANGE_DAYS) return RANGE_TOO_LONG;
  return null;
}

export type Bucket = 'day' | 'week';

export function bucketOf(range: DateRange): Bucket {
  return daysBetween(range.from, range.to) + 1 <= DAILY_UP_TO_DAYS ? 'day' : 'week';
}

/** The first day of every bucket the range touches, in order (a week starts on its Monday). */
export function bucketStarts(range: DateRange, bucket: Bucket): string[] {
  let start = range.from;
  if (bucket === 'week') {
    const weekday = (new Date(`${start}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
    start = addDays(start, -weekday);
  }
  const step = bucket === 'week' ? 7 : 1;
  const out: string[] = [];
  for (let d = start; d <= range.to; d = addDays(d, step)) out.push(d);
  return out;
}

/** Hours as a short text: "18 h", "3.5 days". */
export function formatDuration(hours: number | null): string {
  if (hours === null) return '—';
  if (hours < 48) return `${hours < 10 ? hours.toFixed(1) : Math.round(hours)} h`;
  return `${(hours / 24).toFixed(1)} days`;
}
