import { readFileSync } from 'node:fs';
import type { Settings } from '#api/settings.ts';

export type LegalText = 'terms' | 'privacy';

/**
 * The owner's terms or privacy text (TERMS_FILE, PRIVACY_FILE): Markdown, read at each view so an
 * edit shows without a restart, with {{shopName}}, {{supportEmail}}, {{mailRetentionDays}},
 * {{photoRetentionDays}} and {{sessionTtlHours}} filled in from the settings.
 */
export function legalMarkdown(settings: Settings, which: LegalText): string {
  const text = readFileSync(which === 'terms' ? settings.termsFile : settings.privacyFile, 'utf8');
  const values: Record<string, string> = {
    shopName: settings.shopName,
    supportEmail: settings.supportEmail,
    mailRetentionDays: String(settings.mailRetentionDays),
    photoRetentionDays: String(settings.photoRetentionDays),
    sessionTtlHours: String(settings.sessionTtlHours),
  };
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => values[name] ?? whole);
}
