/**
 * Rules of the request journey that the API enforces and the pages repeat to help before a call:
 * plain TypeScript, no framework import, so `src/` and `cli/` read them from here.
 */

export const FUTURE_SHIPPING_DATE = 'The shipping date cannot be in the future.';
export const SHIPPING_LOCKED = 'Shipping details can no longer be changed: the item has already been received.';
/** What customers are told to expect between arrival and credit. */
export const CREDIT_USUALLY_WITHIN_DAYS = 3;

export const DECLINE_NEEDS_FEEDBACK = 'Please tell the customer why the request is declined (Admin Feedback).';

/** Today's yyyy-mm-dd in `timeZone` (the shop's): the latest shipping date accepted. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** yyyy-mm-dd strings compare in calendar order. */
export function isFutureDay(day: string, timeZone: string, now: Date = new Date()): boolean {
  return day > todayIn(timeZone, now);
}

const CARRIERS: Record<string, readonly string[]> = {
  IN: ['Delhivery', 'Blue Dart', 'DTDC', 'India Post', 'Ekart', 'Xpressbees', 'Shadowfax'],
  US: ['USPS', 'UPS', 'FedEx', 'DHL'],
  GB: ['Royal Mail', 'Parcelforce', 'DPD', 'Evri', 'DHL'],
  CA: ['Canada Post', 'Purolator', 'UPS', 'FedEx'],
  AU: ['Australia Post', 'StarTrack', 'Aramex', 'DHL'],
  DE: ['DHL', 'Hermes', 'DPD', 'GLS', 'UPS'],
};

/** Carriers customers in the shop's country commonly use, for the Carrier Name suggestions. */
export function carriersFor(country: string): readonly string[] {
  return CARRIERS[country.toUpperCase()] ?? ['DHL', 'FedEx', 'UPS'];
}

/** Columns the admin queue can be sorted by (`sort`), each with its direction (`order`). */
export const ADMIN_SORTS = ['date', 'product', 'brand', 'condition', 'email'] as const;
export type AdminSort = (typeof ADMIN_SORTS)[number];
export type SortOrder = 'asc' | 'desc';

/** The pending tab works oldest first (who has waited longest); the others show the newest first. */
export function defaultAdminOrder(tab: number): { sort: AdminSort; order: SortOrder } {
  return { sort: 'date', order: tab === 0 ? 'asc' : 'desc' };
}
