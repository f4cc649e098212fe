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

/** The Intl locale each language formats dates, numbers and ₹ amounts with. */
export const LANGUAGE_LOCALES: Record<Language, string> = { en: 'en-IN', hi: 'hi-IN' };

/** The cookie that keeps a signed-out visitor's choice of language (a signed-in one's is on the profile). */
export const LANGUAGE_COOKIE = 'swappoints_lang';

/**
 * The language an Accept-Language header asks for: its tags in order of preference (q, then
 * position), the first that is English or Hindi wins ('hi-IN,en;q=0.8' → hi); none → English.
 */
export function languageFromHeader(acceptLanguage: string | null | undefined): Language {
  const tags = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...attrs] = part.split(';').map((s) => s.trim());
      const q = attrs.find((a) => a.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { primary: tag.toLowerCase().split('-')[0] ?? '', weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((t) => t.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return tags.map((t) => t.primary).find(isLanguage) ?? 'en';
}

/** The value of one cookie in a Cookie header, or null (also when its %-encoding is broken: the browser sent nothing we set). */
export function cookieValue(cookieHeader: string | null | undefined, name: string): string | null {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(rest.join('='));
    } catch {
      return null;
    }
  }
  return null;
}

/** A signed-out visitor's language: the one they chose (the cookie), else their browser's, else English. */
export function visitorLanguage(headers: { cookie: string | null; acceptLanguage: string | null }): Language {
  const chosen = cookieValue(headers.cookie, LANGUAGE_COOKIE);
  return isLanguage(chosen) ? chosen : languageFromHeader(headers.acceptLanguage);
}
