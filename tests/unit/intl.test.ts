import { nextDay, startOfDayIn } from '#api/lib/days.ts';
import { describe, expect, test } from 'bun:test';
import { dateTimeFormat, numberFormat } from '#api/lib/intl.ts';
import { formatMoney, wholeMoney } from '#api/lib/money.ts';
import { formatDate, formatDateTime } from '#src/lib/requests.ts';

describe('cached Intl formatters', () => {
  test('one formatter per locale and options, reused; another option or locale gets its own', () => {
    const a = dateTimeFormat('en-IN', { dateStyle: 'medium', timeZone: 'Asia/Kolkata' });
    expect(dateTimeFormat('en-IN', { dateStyle: 'medium', timeZone: 'Asia/Kolkata' })).toBe(a);
    expect(dateTimeFormat('en-IN', { dateStyle: 'medium', timeZone: 'UTC' })).not.toBe(a);
    expect(dateTimeFormat('de-DE', { dateStyle: 'medium', timeZone: 'Asia/Kolkata' })).not.toBe(a);
    expect(numberFormat('en-IN', { minimumFractionDigits: 2 })).toBe(numberFormat('en-IN', { minimumFractionDigits: 2 }));
  });

  test('formats as a fresh Intl formatter would, for many locales in a row (the cache is bounded, not wrong)', () => {
    const at = new Date('2025-03-05T09:00:00Z');
    for (let i = 0; i < 600; i++) {
      const locale = ['en-IN', 'en-US', 'de-DE', 'fr-FR', 'hi-IN'][i % 5]!;
      const zone = i % 2 ? 'UTC' : 'Asia/Kolkata';
      expect(dateTimeFormat(locale, { dateStyle: 'medium', timeZone: zone }).format(at)).toBe(new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: zone }).format(at));
      // distinct options each time push the cache past its bound
      const digits = i % 20;
      expect(numberFormat('en-IN', { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(125000.5)).toBe((125000.5).toLocaleString('en-IN', { minimumFractionDigits: digits, maximumFractionDigits: digits }));
    }
  });

  test('money and dates read as before: lakh grouping for rupees, the day of a bare date everywhere', () => {
    expect(formatMoney(125000, 'INR')).toBe('₹1,25,000.00');
    expect(formatMoney('125000', 'USD')).toBe('$125,000.00');
    expect(wholeMoney(1450.4, 'INR')).toBe('₹1,450');
    expect(formatDate('2025-03-05', 'en-IN', 'America/Los_Angeles')).toBe('5 Mar 2025');
    expect(formatDateTime('2025-03-05T09:00:00Z', 'en-IN', 'UTC')).toBe('5 Mar 2025, 9:00 am UTC');
  });
});

describe('a calendar day in the shop’s zone (campaign windows)', () => {
  test('startOfDayIn: the instant the day starts there, across a clock change; nextDay crosses months and years', () => {
    expect(startOfDayIn('2026-11-25', 'Asia/Kolkata').toISOString()).toBe('2026-11-24T18:30:00.000Z');
    expect(startOfDayIn('2026-11-25', 'UTC').toISOString()).toBe('2026-11-25T00:00:00.000Z');
    expect(startOfDayIn('2026-03-08', 'America/New_York').toISOString()).toBe('2026-03-08T05:00:00.000Z'); // EST, the day of the change
    expect(startOfDayIn('2026-03-09', 'America/New_York').toISOString()).toBe('2026-03-09T04:00:00.000Z'); // EDT
    expect(startOfDayIn('2026-06-01', 'Pacific/Auckland').toISOString()).toBe('2026-05-31T12:00:00.000Z');
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
    expect(nextDay('2028-02-28')).toBe('2028-02-29');
  });
});
