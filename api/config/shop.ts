import type { Condition } from '#api/db/types.ts';

/**
 * What a shop sees and might want to change: the lists and limits the pages, the API and the CLI
 * show or enforce, in one typed place. Plain TypeScript, no framework or database import, so client
 * islands read it too (most through their feature's rules.ts, which keeps the rules and messages).
 * Settings read from the environment are api/settings.ts; this is what the code ships with.
 */

/** Each condition as the forms offer it (label) and as chips show it (short), in the spec's order (§3). */
export const CONDITION_LABELS: Record<Condition, { label: string; short: string }> = {
  new: { label: 'New (with tags)', short: 'New' },
  like_new: { label: 'Like New (without tags)', short: 'Like New' },
  very_good: { label: 'Very Good (minimal wear)', short: 'Very Good' },
  good: { label: 'Good (some signs of wear)', short: 'Good' },
  fair: { label: 'Fair (visible wear)', short: 'Fair' },
  poor: { label: 'Poor (significant wear)', short: 'Poor' },
};

/** The condition multipliers a new shop starts with, in percent of a new unit's value. */
export const DEFAULT_MULTIPLIERS: Record<Condition, number> = { new: 100, like_new: 85, very_good: 75, good: 60, fair: 40, poor: 20 };

/** Carriers customers commonly use, by the shop's country (ISO 3166 alpha-2), for the Carrier Name suggestions. */
export const CARRIERS_BY_COUNTRY: Readonly<Record<string, readonly string[]>> = {
  IN: ['Delhivery', 'Blue Dart', 'DTDC', 'India Post', 'Ekart', 'Xpressbees', 'Shadowfax'],
  US: ['USPS', 'UPS', 'FedEx', 'DHL'],
  GB: ['Royal Mail', 'Parcelforce', 'DPD', 'Evri', 'DHL'],
  CA: ['Canada Post', 'Purolator', 'UPS', 'FedEx'],
  AU: ['Australia Post', 'StarTrack', 'Aramex', 'DHL'],
  DE: ['DHL', 'Hermes', 'DPD', 'GLS', 'UPS'],
};
/** The suggestions for a country not listed above. */
export const OTHER_COUNTRY_CARRIERS: readonly string[] = ['DHL', 'FedEx', 'UPS'];

/** Images: 5 MB each (the spec's limit), at most 5 on a request. */
export const IMAGE_LIMITS = { maxBytes: 5_242_880, perRequest: 5, inspectionPerRequest: 5 } as const;

/** The largest credit one request can get (numeric(12,2) holds more; no printer part is worth this). */
export const MAX_CREDIT = 10_000_000;

/** What customers are told to expect between arrival and credit. */
export const CREDIT_USUALLY_WITHIN_DAYS = 3;

/** The most characters each text field of the request and shipping forms takes: the forms stop there, the API refuses more. */
export const REQUEST_TEXT_LIMITS = { productName: 200, brand: 100, description: 5000, carrierName: 100, trackingNumber: 100, notes: 2000 } as const;

/** The most characters each warehouse field takes: the form stops there, the API refuses more. */
export const WAREHOUSE_TEXT_LIMITS: Readonly<Record<string, number>> = {
  name: 200,
  addressLine1: 500,
  addressLine2: 500,
  city: 200,
  state: 200,
  postalCode: 50,
  country: 200,
  contactPerson: 200,
  contactPhone: 100,
};

/** Longest texts of the valuation guide, and its largest amount. */
export const VALUATION_LIMITS = { brand: 100, model: 100, name: 200, reason: 500, campaignName: 200, money: MAX_CREDIT } as const;

/**
 * The admin actions' texts: the most characters each takes and the label its dialog shows (Approve or
 * Decline's feedback, Mark as Received's note, Assign Credit's reason below the quote). The dialog
 * stops there and, at the limit, says the sentence the API refuses more with.
 */
export const ADMIN_TEXT_LIMITS = {
  adminFeedback: { label: 'Admin Feedback', max: 10_000 },
  adminNote: { label: 'Notes', max: 10_000 },
  reason: { label: 'Reason for a credit below the quote', max: 2_000 },
  creditNote: { label: 'Note', max: 10_000 },
} as const;
