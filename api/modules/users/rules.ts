/**
 * The customer's profile: the languages we write in and the phone number WhatsApp reaches. Plain
 * TypeScript: pages and the CLI import these instead of copying them.
 */

export const LANGUAGES = ['en', 'hi'] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', hi: 'हिन्दी (Hindi)' };

/** The labels the profile form shows: an error names a field by its label. */
export const PROFILE_FIELD_LABELS = { phone: 'WhatsApp number', whatsapp: 'WhatsApp updates', language: 'Language' } as const;

export const PHONE_INVALID = `${PROFILE_FIELD_LABELS.phone}: enter a 10-digit Indian mobile number (98765 43210) or an international number starting with + and the country code.`;
export const PHONE_NEEDED = `${PROFILE_FIELD_LABELS.phone}: enter your number to get WhatsApp updates.`;
export const LANGUAGE_INVALID = `${PROFILE_FIELD_LABELS.language}: choose English (en) or Hindi (hi).`;
export const WHATSAPP_INVALID = `${PROFILE_FIELD_LABELS.whatsapp}: send true to opt in or false to opt out.`;
export const PHONE_MAX_LENGTH = 32;

/**
 * A phone number as E.164 (+919876543210), or null when it is not one. A 10-digit Indian mobile
 * number (starting 6 to 9, with or without a leading 0 or 91) gets +91; any other country must be
 * written with + and its code. Spaces, dashes, dots and brackets are ignored.
 */
export function normalizePhone(raw: string): string | null {
  const compact = raw.trim().replace(/[\s\-.()]/g, '');
  if (/^0?[6-9]\d{9}$/.test(compact)) return `+91${compact.slice(-10)}`;
  if (/^91[6-9]\d{9}$/.test(compact)) return `+${compact}`;
  if (/^\+91/.test(compact)) return /^\+91[6-9]\d{9}$/.test(compact) ? compact : null;
  if (/^\+[1-9]\d{7,14}$/.test(compact)) return compact;
  return null;
}

export const isLanguage = (value: unknown): value is Language => typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
