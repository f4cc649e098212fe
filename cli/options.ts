import { isCalendarDate } from '#api/lib/text.ts';
import { UsageError } from './io.ts';

/**
 * A --since/--until value: a calendar date (a whole day in UTC: --since from its start, --until
 * through its end) or a time yyyy-mm-ddThh:mm[:ss[.fff]] with Z or an offset (UTC without one).
 */
export function parseDateOption(flag: string, value: string, edge: 'start' | 'end'): Date {
  const v = value.trim();
  const bad = () => new UsageError(`${flag} must be a date (yyyy-mm-dd) or a time (yyyy-mm-ddThh:mm[:ss][Z|+hh:mm]), not "${value}"`);
  if (!isCalendarDate(v.slice(0, 10))) throw bad();
  if (v.length === 10) {
    const day = new Date(`${v}T00:00:00Z`);
    return edge === 'start' ? day : new Date(day.getTime() + 86_400_000);
  }
  const m = /^\d{4}-\d{2}-\d{2}[T ]([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,6})?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)?$/i.exec(v);
  if (!m) throw bad();
  const time = new Date(m[4] ? v.replace(' ', 'T') : `${v.replace(' ', 'T')}Z`);
  if (Number.isNaN(time.getTime())) throw bad();
  return time;
}
