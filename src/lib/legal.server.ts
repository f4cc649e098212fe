import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { currentTermsVersion, namedVersion } from '#api/modules/auth/terms-version.ts';
import type { Language } from '#api/modules/users/rules.ts';
import type { Settings } from '#api/settings.ts';

export type LegalText = 'terms' | 'privacy';

const fileOf = (settings: Settings, which: LegalText) => (which === 'terms' ? settings.termsFile : settings.privacyFile);

/**
 * {{shopName}}, {{supportEmail}}, {{mailRetentionDays}}, {{photoRetentionDays}} and {{sessionTtlHours}}
 * filled in from the settings; HTML comments (the `<!-- version: … -->` line) dropped, since the page
 * renders no raw HTML and would show them as text.
 */
function filledIn(settings: Settings, text: string): string {
  const values: Record<string, string> = {
    shopName: settings.shopName,
    supportEmail: settings.supportEmail,
    mailRetentionDays: String(settings.mailRetentionDays),
    photoRetentionDays: String(settings.photoRetentionDays),
    sessionTtlHours: String(settings.sessionTtlHours),
  };
  return text.replace(/<!--[\s\S]*?-->[ \t]*\n?/g, '').replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => values[name] ?? whole);
}

/**
 * The owner's terms or privacy text (TERMS_FILE, PRIVACY_FILE): Markdown, read at each view so an
 * edit shows without a restart, with the settings filled in.
 */
export function legalMarkdown(settings: Settings, which: LegalText): string {
  return filledIn(settings, readFileSync(fileOf(settings, which), 'utf8'));
}

/** Where a translation of `file` sits: `terms.hi.md` beside `terms.md`. */
export function translationFile(file: string, lang: Language): string {
  const ext = extname(file);
  return join(dirname(file), `${basename(file, ext)}.${lang}${ext || '.md'}`);
}

/**
 * The text in the reader's language when the owner keeps a translation beside the file (the shipped
 * texts have Hindi ones) and it names the version in force (`<!-- version: … -->`: the English
 * terms' own, else their hash): a translation an edit of the English text left behind is not shown,
 * so nobody reads terms other than those they agree to. Otherwise the English text. `lang` is the
 * language of the text given.
 */
export function legalTextFor(settings: Settings, which: LegalText, reader: Language): { markdown: string; lang: Language } {
  if (reader !== 'en') {
    const file = translationFile(fileOf(settings, which), reader);
    const text = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    if (text !== undefined && namedVersion(text) === currentTermsVersion(settings)) return { markdown: filledIn(settings, text), lang: reader };
  }
  return { markdown: legalMarkdown(settings, which), lang: 'en' };
}
