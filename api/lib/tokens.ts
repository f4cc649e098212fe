import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: for sign-in links and other bearer secrets. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a secret token: its SHA-256, so a leaked table signs nobody in. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
