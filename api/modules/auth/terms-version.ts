import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { Settings } from '#api/settings.ts';

/** `<!-- version: 2027-01 -->` anywhere in the terms names their version; an owner sets it to ask everyone again only when it changes. */
const VERSION_COMMENT = /<!--\s*version:\s*([\w.\-]{1,100})\s*-->/i;

/** The version a text names in a `<!-- version: … -->` comment, if it names one. */
export const namedVersion = (text: string): string | undefined => VERSION_COMMENT.exec(text)?.[1];

/** The last version worked out, with the files' size and modification time it was read at. */
let last: { key: string; version: string } | undefined;

/**
 * The version of the terms and privacy notice a customer agrees to: the one the terms file names,
 * else the first 12 hex digits of a SHA-256 of both files, so any edit is a new version. Signed-in
 * pages ask on every render, so the files are read again only when their size or time changed
 * (an edit counts without a restart).
 */
export function currentTermsVersion(settings: Pick<Settings, 'termsFile' | 'privacyFile'>): string {
  const key = [settings.termsFile, settings.privacyFile].map((file) => {
    const { size, mtimeMs } = statSync(file);
    return `${file}:${size}:${mtimeMs}`;
  }).join('|');
  if (last?.key === key) return last.version;
  const terms = readFileSync(settings.termsFile, 'utf8');
  const named = namedVersion(terms);
  const version = named ?? createHash('sha256').update(terms).update('\0').update(readFileSync(settings.privacyFile, 'utf8')).digest('hex').slice(0, 12);
  last = { key, version };
  return version;
}
