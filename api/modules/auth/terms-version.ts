import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Settings } from '#api/settings.ts';

/** `<!-- version: 2027-01 -->` anywhere in the terms names their version; an owner sets it to ask everyone again only when it changes. */
const VERSION_COMMENT = /<!--\s*version:\s*([\w.\-]{1,100})\s*-->/i;

/**
 * The version of the terms and privacy notice a customer agrees to: the one the terms file names,
 * else the first 12 hex digits of a SHA-256 of both files, so any edit is a new version. Read at
 * each call, like the pages, so an edit counts without a restart.
 */
export function currentTermsVersion(settings: Pick<Settings, 'termsFile' | 'privacyFile'>): string {
  const terms = readFileSync(settings.termsFile, 'utf8');
  const named = VERSION_COMMENT.exec(terms)?.[1];
  if (named) return named;
  const privacy = readFileSync(settings.privacyFile, 'utf8');
  return createHash('sha256').update(terms).update('\0').update(privacy).digest('hex').slice(0, 12);
}
