import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { loadSettings } from '#api/settings.ts';
import { MarkdownText } from '#src/components/legal/markdown-text.tsx';
import { currentTermsVersion } from '#api/modules/auth/terms-version.ts';
import { legalMarkdown, legalTextFor, translationFile } from '#src/lib/legal.server.ts';

const root = mkdtempSync(join(tmpdir(), 'swappoints-legal-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const base = { DATA_DIR: join(root, 'data'), JWT_SECRET: 'x'.repeat(40) };

/** An owner's terms file with `text`, in a folder of its own under `name`, and the settings naming it. */
function ownerTerms(name: string, text: string) {
  const dir = join(root, name);
  mkdirSync(dir);
  const file = join(dir, 'terms.md');
  writeFileSync(file, text);
  return { dir, file, settings: loadSettings({ ...base, TERMS_FILE: file }) };
}

describe('TERMS_FILE and PRIVACY_FILE', () => {
  test('default to the shipped texts, which say what is held, for how long, and how to ask for a copy, erasure or a grievance', () => {
    const settings = loadSettings({ ...base, SUPPORT_EMAIL: 'help@shop.example', SHOP_NAME: 'Printer Parts Co' });
    expect(settings.termsFile).toEndWith('content/terms.md');
    expect(settings.privacyFile).toEndWith('content/privacy.md');
    const privacy = legalMarkdown(settings, 'privacy');
    for (const phrase of ['What we hold', 'How long we keep it', 'a copy', 'erase', 'grievance', 'within 90 days', 'help@shop.example', 'Printer Parts Co', 'after 30 days', 'deleted 180 days after the request is completed or\n  declined']) {
      expect(privacy).toContain(phrase);
    }
    expect(privacy).not.toContain('{{');
    expect(legalMarkdown(settings, 'terms')).toContain('# Terms of Service');
  });

  test("an owner's file is read at each view; a missing one stops start-up naming the setting", () => {
    const file = join(root, 'terms.md');
    writeFileSync(file, '# Our terms\n\nWrite to {{supportEmail}}.');
    const settings = loadSettings({ ...base, TERMS_FILE: file });
    expect(legalMarkdown(settings, 'terms')).toBe('# Our terms\n\nWrite to support@swappoints.local.');
    writeFileSync(file, '# Our terms, version 2');
    expect(legalMarkdown(settings, 'terms')).toBe('# Our terms, version 2');
    const missing = join(root, 'nope.md');
    expect(() => loadSettings({ ...base, PRIVACY_FILE: missing })).toThrow(`Invalid setting PRIVACY_FILE: expected a readable Markdown file, got "${missing}".`);
  });

  test('rendered on the server without raw HTML; only web, mail and same-site links stay links', () => {
    const html = renderToStaticMarkup(
      <MarkdownText markdown={'# Title\n\n<script>alert(1)</script>\n\nSee [privacy](/privacy), [mail](mailto:a@b.example), [web](https://shop.example) and [bad](javascript:alert(1)) <b>bold</b>.'} />,
    );
    expect(html).toContain('<h1 class="text-2xl font-semibold tracking-tight">Title</h1>');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>');
    expect(html).toContain('href="/privacy"');
    expect(html).toContain('href="mailto:a@b.example"');
    expect(html).toContain('href="https://shop.example"');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('bad');
  });

  test("a version comment in the owner's text names the version and is not shown as text", () => {
    const { settings } = ownerTerms('versioned', '<!-- version: 2027-01 -->\n# Our terms\n\nBe kind.');
    expect(currentTermsVersion(settings)).toBe('2027-01');
    expect(legalMarkdown(settings, 'terms')).toBe('# Our terms\n\nBe kind.');
    expect(renderToStaticMarkup(<MarkdownText markdown={legalMarkdown(settings, 'terms')} />)).not.toContain('version');
  });
});

describe('the terms and privacy text in Hindi', () => {
  test('the shipped texts have Hindi translations of the version in force, with the settings filled in', () => {
    const settings = loadSettings({ ...base, SUPPORT_EMAIL: 'help@shop.example', SHOP_NAME: 'Printer Parts Co' });
    // an edit of content/terms.md or privacy.md changes the version: translate it again and name the new version
    for (const which of ['terms', 'privacy'] as const) {
      const file = translationFile(which === 'terms' ? settings.termsFile : settings.privacyFile, 'hi');
      expect(file).toEndWith(`content/${which}.hi.md`);
      expect(readFileSync(file, 'utf8')).toStartWith(`<!-- version: ${currentTermsVersion(settings)} -->\n`);
    }
    const terms = legalTextFor(settings, 'terms', 'hi');
    expect(terms.lang).toBe('hi');
    expect(terms.markdown).toStartWith('# सेवा की शर्तें\n');
    const privacy = legalTextFor(settings, 'privacy', 'hi');
    expect(privacy.lang).toBe('hi');
    for (const phrase of ['# गोपनीयता नीति', 'Printer Parts Co', 'help@shop.example', '30 दिनों के बाद', '180 दिन बाद', '90 दिनों के भीतर', 'भारतीय डेटा संरक्षण बोर्ड']) expect(privacy.markdown).toContain(phrase);
    expect(privacy.markdown).not.toContain('{{');
    expect(privacy.markdown).not.toContain('<!--');
    expect(legalTextFor(settings, 'privacy', 'en')).toEqual({ markdown: legalMarkdown(settings, 'privacy'), lang: 'en' });
  });

  test("an owner's text without a translation, or with one of another version, is shown in English", () => {
    const { dir, file, settings } = ownerTerms('owner', '<!-- version: 2027-02 -->\n# Our terms');
    expect(legalTextFor(settings, 'terms', 'hi')).toEqual({ markdown: '# Our terms', lang: 'en' });
    writeFileSync(join(dir, 'terms.hi.md'), '<!-- version: 2027-01 -->\n# हमारी शर्तें');
    expect(legalTextFor(settings, 'terms', 'hi')).toEqual({ markdown: '# Our terms', lang: 'en' });
    writeFileSync(join(dir, 'terms.hi.md'), '<!-- version: 2027-02 -->\n# हमारी शर्तें');
    expect(legalTextFor(settings, 'terms', 'hi')).toEqual({ markdown: '# हमारी शर्तें', lang: 'hi' });
    writeFileSync(file, '<!-- version: 2027-03 -->\n# Our terms, changed');
    expect(legalTextFor(settings, 'terms', 'hi')).toEqual({ markdown: '# Our terms, changed', lang: 'en' });
  });
});
