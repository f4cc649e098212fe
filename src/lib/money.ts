/** The spec's currency symbols; anything else shows its code. */
const SYMBOLS: Record<string, string> = { INR: '₹', USD: '$', EUR: '€', GBP: '£' };

export function currencySymbol(currency: string | null | undefined): string {
  const code = (currency || 'INR').toUpperCase();
  return SYMBOLS[code] ?? `${code} `;
}

/** Symbol plus amount to 2 decimals, grouped: ₹1,250.00. */
export function formatMoney(amount: number | string | null | undefined, currency?: string | null): string {
  const value = Number(amount ?? 0);
  const fixed = (Number.isFinite(value) ? value : 0).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `${currencySymbol(currency)}${fixed}`;
}
