/**
 * Risk controls (issue 24): the block list's entries and messages, and how close two photos' hashes
 * must be to count as the same photo. Plain TS: `src/` and `cli/` import it.
 */

/**
 * What a blocked customer reads when submitting. Neutral on purpose: it never says why, nor that a
 * list exists, so the reason an admin wrote stays with the admins.
 */
export const SUBMISSION_REFUSED = 'We cannot accept a trade-in request from this account. Please contact the shop if you have questions.';

export const BLOCK_LIMITS = { entry: 254, reason: 500 } as const;
export const BLOCK_FIELD_LABELS = { entry: 'Email or @domain', reason: 'Reason' } as const;

export const INVALID_BLOCK_ENTRY = 'Enter an email address (name@example.com) or a domain starting with @ (@example.com).';
export const BLOCK_REASON_REQUIRED = 'Enter the reason for blocking (admins only see it).';
export const ALREADY_BLOCKED = 'That email or domain is already on the block list.';
export const BLOCK_NOT_FOUND = 'Block list entry not found';

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** An entry as stored (lower case, trimmed: `name@example.com` or `@example.com`), or null when it is neither. */
export function parseBlockEntry(raw: string | null | undefined): string | null {
  const entry = (raw ?? '').trim().toLowerCase();
  if (entry.length === 0 || entry.length > BLOCK_LIMITS.entry) return null;
  if (entry.startsWith('@')) return DOMAIN.test(entry.slice(1)) ? entry : null;
  const at = entry.lastIndexOf('@');
  if (at <= 0 || /\s/.test(entry)) return null;
  return DOMAIN.test(entry.slice(at + 1)) ? entry : null;
}

/**
 * The entries that would block this email: the address itself, its domain and every parent domain
 * (`@example.com` blocks `x@mail.example.com` too), all in lower case.
 */
export function entriesMatching(email: string): string[] {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 0) return [address];
  const labels = address.slice(at + 1).split('.');
  const domains = labels.slice(0, -1).map((_, i) => `@${labels.slice(i).join('.')}`);
  return [address, ...domains];
}

/**
 * Two photos whose 64-bit difference hashes differ in at most this many bits are taken for the same
 * photo. Measured on the demo photos (tests/unit/photo-fingerprint.test.ts): a copy re-saved at JPEG
 * quality 30 or 50, resized to a half, a third or double, or converted to PNG differs in 0-3 bits;
 * the closest two different photos (two near-identical toner shots on the same backdrop) in 7, and
 * unrelated photos in about 20-35. 5 sits in the middle of the 3-7 gap.
 */
export const DUPLICATE_PHOTO_MAX_DISTANCE = 5;

export const RISK_FLAG_LABELS = { duplicate_photo: 'Duplicate photo' } as const;

/** The sentence an admin reads on a flagged request; `reference` is the other request's short reference. */
export const duplicatePhotoSentence = (reference: string) => `Photo also used in request ${reference}`;
