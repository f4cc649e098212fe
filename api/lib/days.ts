/** Calendar days (yyyy-mm-dd) in a time zone, such as the shop's. */
import { dateTimeFormat } from './intl.ts';

/** Today's date in `timeZone` (yyyy-mm-dd); its formatter is made once (intl.ts). */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return dateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** How far `timeZone`'s clock is ahead of UTC at `at` (minutes; 330 for Asia/Kolkata). */
function offsetMinutes(at: number, timeZone: string): number {
  const parts = dateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(new Date(at));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Math.round((Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second')) - at) / 60_000);
}

/** The instant a calendar day (yyyy-mm-dd) starts in `timeZone`: '2026-11-25' in Asia/Kolkata is 2026-11-24T18:30Z. */
export function startOfDayIn(day: string, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const midnightUtc = Date.UTC(y, m - 1, d);
  // once from the UTC midnight's offset, once more in case a clock change lies between the two
  const first = midnightUtc - offsetMinutes(midnightUtc, timeZone) * 60_000;
  return new Date(midnightUtc - offsetMinutes(first, timeZone) * 60_000);
}

/** The day after a calendar day (yyyy-mm-dd). */
export function nextDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}
