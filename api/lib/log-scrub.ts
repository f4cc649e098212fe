/**
 * What never reaches a log line, whatever the format: session tokens (JWTs), sign-in tokens in
 * links, passwords in URLs, fields named like secrets; and emails, which are kept at debug only.
 * The one field let through is `link` on the log mail transport's line (MAIL_TRANSPORT=log prints
 * the sign-in link on purpose: it is that transport's delivery).
 */

const SECRET_KEY = /token|password|passwd|secret|authorization|cookie|jwt|api[-_]?key/i;
const JWT = /\beyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]{5,}/g;
const BEARER = /\b(Bearer\s+)[\w.~+/=-]+/gi;
const TOKEN_PARAM = /([?&](?:token|code|key|signature|sig)=)[^&\s"']+/gi;
const URL_PASSWORD = /(\b[a-z][\w+.-]*:\/\/[^\s:/@]*:)[^\s@/]+@/gi;
const EMAIL = /[\w.+-]+@([\w-]+\.)+[\w-]{2,}/g;
export const REDACTED = '[redacted]';

/** `asha.rao@example.com` → `a…@example.com`: enough to tell mails apart, not to know whose. */
const maskEmail = (email: string) => `${email[0]}…${email.slice(email.indexOf('@'))}`;

export function scrubText(text: string, options: { keepEmails: boolean; keepLinks?: boolean }): string {
  let out = text.replace(JWT, REDACTED).replace(BEARER, `$1${REDACTED}`).replace(URL_PASSWORD, `$1${REDACTED}@`);
  if (!options.keepLinks) out = out.replace(TOKEN_PARAM, `$1${REDACTED}`);
  if (!options.keepEmails) out = out.replace(EMAIL, maskEmail);
  return out;
}

function scrubValue(key: string, value: unknown, keepEmails: boolean, depth: number): unknown {
  if (value === undefined || value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (SECRET_KEY.test(key)) return REDACTED;
  if (typeof value === 'string') return scrubText(value, { keepEmails, keepLinks: key === 'link' });
  if (value instanceof Error) {
    const clean = new Error(scrubText(value.message, { keepEmails }));
    clean.name = value.name;
    clean.stack = value.stack && scrubText(value.stack, { keepEmails });
    return clean;
  }
  if (value instanceof Date) return value;
  if (depth > 3) return '[…]';
  if (Array.isArray(value)) return value.map((v) => scrubValue('', v, keepEmails, depth + 1));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = scrubValue(k, v, keepEmails, depth + 1);
    return out;
  }
  return value;
}

/** The fields of one log line, safe to write at `level`. */
export function scrubFields(fields: Record<string, unknown>, level: string): Record<string, unknown> {
  const keepEmails = level === 'debug';
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) out[key] = scrubValue(key, value, keepEmails, 0);
  return out;
}
