/**
 * Warehouse rules the API enforces and the admin page repeats before a call: plain TypeScript, no
 * framework import, so `src/` and `cli/` read them from here.
 */

import { WAREHOUSE_TEXT_LIMITS } from '#api/config/shop.ts';
import { tooLongMessage } from '#api/lib/text.ts';

/** Each field as the warehouse form labels it. */
export const WAREHOUSE_FIELD_LABELS: Record<string, string> = {
  name: 'Name',
  addressLine1: 'Address Line 1',
  addressLine2: 'Address Line 2',
  city: 'City',
  state: 'State',
  postalCode: 'Postal Code',
  country: 'Country',
  contactPerson: 'Contact Person',
  contactPhone: 'Contact Phone',
};

/** The most characters each field takes (api/config/shop.ts): the form stops there and the API refuses more, with one sentence (`warehouseFieldError`). */
export const WAREHOUSE_LIMITS = WAREHOUSE_TEXT_LIMITS;

/** The error for a field that is too long (or not text), named as the form labels it. */
export const warehouseFieldError = (field: string) => tooLongMessage(WAREHOUSE_FIELD_LABELS[field] ?? field, WAREHOUSE_LIMITS[field] ?? 200);
export const ACTIVE_ERROR = 'Active must be on or off (true or false).';

/** The spec's message, naming the fields as the form labels them ('Address Line 1, Postal Code'). */
export const missingFieldsMessage = (missing: readonly string[]) =>
  `Please fill in all required fields: ${missing.map((field) => WAREHOUSE_FIELD_LABELS[field] ?? field).join(', ')}`;

interface CountryRule {
  name: string;
  postal: RegExp;
  postalHint: string;
  /** the national number once the country code (or a trunk 0) is taken off */
  phoneDigits: RegExp;
  phonePrefix: string;
}

const COUNTRIES: Record<string, CountryRule> = {
  IN: { name: 'India', postal: /^[1-9]\d{5}$/, postalHint: 'a 6-digit PIN code (like 560058)', phoneDigits: /^\d{10}$/, phonePrefix: '+91' },
  US: { name: 'the United States', postal: /^\d{5}(-\d{4})?$/, postalHint: 'a ZIP code (like 94105 or 94105-1234)', phoneDigits: /^\d{10}$/, phonePrefix: '+1' },
  GB: {
    name: 'the United Kingdom',
    postal: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i,
    postalHint: 'a postcode (like SW1A 1AA)',
    phoneDigits: /^\d{9,10}$/,
    phonePrefix: '+44',
  },
};

const ALIASES: Record<string, string> = {
  in: 'IN', ind: 'IN', india: 'IN', bharat: 'IN',
  us: 'US', usa: 'US', 'united states': 'US', 'united states of america': 'US',
  gb: 'GB', uk: 'GB', 'united kingdom': 'GB', 'great britain': 'GB', england: 'GB',
};

/** The ISO code of a country as an admin types it ('India', 'IN'), when we know its formats. */
export function countryCode(country: string): string | null {
  return ALIASES[country.trim().toLowerCase()] ?? null;
}

/**
 * The postal code and phone checked for the warehouse's country: a field and its message, or null.
 * Countries we do not know get only a loose check.
 */
export function addressProblem(w: { postalCode: string; country: string; contactPhone?: string | null }): { field: string; message: string } | null {
  const rule = COUNTRIES[countryCode(w.country) ?? ''];
  const postal = w.postalCode.trim();
  if (rule && !rule.postal.test(postal)) return { field: 'postalCode', message: `Postal Code must be ${rule.postalHint} for ${rule.name}.` };
  if (!rule && !/^[A-Za-z0-9][A-Za-z0-9 -]{1,10}$/.test(postal)) return { field: 'postalCode', message: 'Postal Code must be 2 to 11 letters or digits.' };
  const phone = w.contactPhone?.trim();
  if (!phone) return null;
  const compact = phone.replace(/[\s().-]/g, '');
  if (!/^\+?\d+$/.test(compact)) return { field: 'contactPhone', message: 'Contact Phone may hold only digits, spaces, dashes, brackets and a leading +.' };
  if (rule) {
    const national = compact.startsWith(rule.phonePrefix) ? compact.slice(rule.phonePrefix.length) : compact.replace(/^0/, '');
    if (!rule.phoneDigits.test(national)) {
      return { field: 'contactPhone', message: `Contact Phone must be a phone number in ${rule.name} (${rule.phonePrefix} and the number, or the number alone).` };
    }
  } else if (!/^\+?\d{7,15}$/.test(compact)) {
    return { field: 'contactPhone', message: 'Contact Phone must have 7 to 15 digits.' };
  }
  return null;
}
