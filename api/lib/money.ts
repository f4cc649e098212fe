import { numberFormat } from './intl.ts';

/**
 * Money as people read it, one home for the API, the mail, the CLI and the pages: the spec's
 * currency symbols (anything else shows its code) and each currency's own digit grouping —
 * ₹1,25,000.00 for rupees, $125,000.00 for dollars.
 */
const SYMBOLS: Record<string, string> = { INR: '₹', USD: '$', EUR: '€', GBP: '£' };

/** The locale whose grouping a currency is written with; the Indian lakh/crore grouping only for INR. */
const GROUPING_LOCALE: Record<string, string> = { INR: 'en-IN' };

const codeOf = (currency: string | null | undefined) => (currency || 'INR').toUpperCase();

export function currencySymbol(currency: string | null | undefined): string {
  const code = codeOf(currency);
  return SYMBOLS[code] ?? `${code} `;
}

function grouped(value: number, currency: string, decimals: number, locale?: string): string {
  // the reader's locale (en-IN, hi-IN) groups rupees; other currencies keep their own convention ($125,000.00, not $1,25,000.00)
  const readerWay = locale && currency === 'INR' ? locale : undefined;
  return numberFormat(readerWay ?? GROUPING_LOCALE[currency] ?? 'en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value);
}

/**
 * Symbol plus amount to 2 decimals, grouped the currency's way: ₹1,250.00, $125,000.00, CHF 1,250.00;
 * rupees the reader's way when a locale is given (the customer pages: en-IN, hi-IN).
 */
export function formatMoney(amount: number | string | null | undefined, currency?: string | null, locale?: string): string {
  const value = Number(amount ?? 0);
  const code = codeOf(currency);
  return `${currencySymbol(code)}${grouped(Number.isFinite(value) ? value : 0, code, 2, locale)}`;
}

/** A whole amount as quotes show it: ₹1,450; rupees the reader's way when a locale is given (a customer's mail: en-IN, hi-IN). */
export function wholeMoney(amount: number, currency: string | null | undefined, locale?: string): string {
  const code = codeOf(currency);
  return `${currencySymbol(code)}${grouped(Math.round(amount), code, 0, locale)}`;
}
