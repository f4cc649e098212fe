/** Calendar days (yyyy-mm-dd) in a time zone, such as the shop's. */
import { dateTimeFormat } from './intl.ts';

/** Today's date in `timeZone` (yyyy-mm-dd); its formatter is made once (intl.ts). */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return dateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}
