import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { loadSettings } from '#api/settings.ts';
import { MarkdownText } from '#src/components/legal/markdown-text.tsx';
import { legalMarkdown } from '#src/lib/legal.server.ts';

const root = mkdtempSync(join(tmpdir(), 'swappoints-legal-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const base = { DATA_DIR: join(root, 'data'), JWT_SECRET: 'x'.repeat(40) };

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
});
