import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ROOT } from './cli.ts';
import type { RunningServer } from './server.ts';

export const SCREENSHOTS = join(ROOT, 'tests/e2e/screenshots');
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** Debian's Chromium, headless, with the flags this machine needs (no network beyond loopback). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/**
 * A person in a browser of their own. Their `page.goto` also waits until React has taken over the
 * page (<html data-hydrated>), as a person waits for a page to be ready: a click before that would
 * be lost on a loaded machine.
 */
export async function newPerson(browser: Browser, server: RunningServer, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: server.url, viewport, locale: 'en-IN' });
  const page = await context.newPage();
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    const isPage = response?.headers()['content-type']?.includes('text/html') ?? false;
    if (isPage) await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true', undefined, { timeout: 30_000 });
    return response;
  };
  return { context, page };
}

/** Signs in as a person would: asks for a link on the page, reads it from the outbox, opens it. */
export async function signInThroughPages(page: Page, server: RunningServer, email: string, startAt = '/email-signin'): Promise<void> {
  await page.goto(startAt);
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByText(`Account found for ${email.toLowerCase()}. We've emailed you a sign-in link.`).waitFor();
  const link = await server.signInLink(email);
  await page.goto(link);
  await page.getByText(`Welcome back! Account found for ${email.toLowerCase()}. Redirecting to dashboard...`).waitFor();
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // let opening dialogs and drawers finish sliding in
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

const AXE = readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical findings on the page as it is now. */
export async function seriousAccessibilityViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ content: AXE });
  const result = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  })) as { violations: AxeViolation[] };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
}
