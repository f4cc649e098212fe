/** Calendar days (yyyy-mm-dd) in a time zone, such as the shop's. */

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** Today's date in `timeZone` (yyyy-mm-dd). A formatter per zone is kept: making one costs more than a small API call. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(now);
}
