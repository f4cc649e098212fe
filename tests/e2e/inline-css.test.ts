import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { newPerson, see, signInThroughPages, startServerAndBrowser, stopServerAndBrowser } from '#tests/helpers/browser.ts';
import { ROOT } from '#tests/helpers/cli.ts';
import type { RunningServer } from '#tests/helpers/server.ts';

let server: RunningServer;
let browser: Browser;
beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser());
}, 120_000);
afterAll(() => stopServerAndBrowser({ server, browser }), 30_000);

const built = (href: string) => readFileSync(join(ROOT, process.env.SWAPPOINTS_DIST_DIR ?? 'dist', 'public', href), 'utf8');

describe('the stylesheet does not hold up the first render', () => {
  test('each page carries the built stylesheet inline, and its link no longer blocks rendering', async () => {
    for (const path of ['/email-signin', '/']) {
      const html = await (await fetch(`${server.url}${path}`)).text();
      const head = html.slice(0, html.indexOf('</head>'));
      const inlined = [...head.matchAll(/<style data-inlined="(\/assets\/[\w.-]+\.css)">([\s\S]*?)<\/style>/g)];
      expect(inlined.length).toBe(1);
      const [, href, css] = inlined[0]!;
      expect(css).toBe(built(href!));
      const links = [...head.matchAll(/<link rel="stylesheet"[^>]*>/g)].map((m) => m[0]);
      expect(links).toHaveLength(1);
      expect(links[0]).toContain(`href="${href}"`);
      expect(links[0]).toContain('media="print"');
      expect(links[0]).toContain('data-precedence=');
      // the rest of the page is what Waku rendered
      expect(html.slice(html.indexOf('</head>'))).toContain('</html>');
    }
  });

  test('the page is styled before and after React takes over, and navigations add no second stylesheet', async () => {
    const { context, page } = await newPerson(browser, server);
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    const stylesheets = () => page.evaluate(() => [...document.querySelectorAll('link[rel="stylesheet"], style[data-inlined]')].map((el) => el.tagName));
    const styled = async () => {
      // Tailwind's classes apply: the header is sticky, the main column centred with its max width
      expect(await page.locator('header').evaluate((el) => getComputedStyle(el).position)).toBe('sticky');
      expect(await page.locator('main').evaluate((el) => getComputedStyle(el).maxWidth)).toBe('1152px');
    };
    await page.goto('/email-signin');
    await styled();
    expect(await stylesheets()).toEqual(['STYLE', 'LINK']);
    // signing in goes on to /verify-email and /dashboard; then a link to /exchange/new, all in the page
    await signInThroughPages(page, server, 'asha.rao@example.com');
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole('link', { name: 'New Exchange' }).first().click();
    await page.waitForURL(/\/exchange\/new$/);
    await see(page, 'New Exchange Request');
    await styled();
    expect(await stylesheets()).toEqual(['STYLE', 'LINK']);
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);
});
