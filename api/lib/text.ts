/** Small helpers for reading what clients send. */

/** Trimmed text without NUL characters (PostgreSQL text cannot hold them); empty becomes null. */
export function cleanText(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const v = value.replace(/\u0000/g, '').trim();
  return v === '' ? null : v;
}

/** A case-insensitive substring pattern for `like` over lower-cased text, with %, _ and \ taken literally. */
export function containsPattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A yyyy-mm-dd date that exists on the calendar (years 1900 to 2999). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1900 || year > 2999 || month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}

/** A text field's length limit, said with the label the form shows: the API and the form use the same sentence. */
export const tooLongMessage = (label: string, max: number) => `${label} can be at most ${max} characters.`;
