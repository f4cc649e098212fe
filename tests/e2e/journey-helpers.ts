import { expect } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, SCREENSHOTS, seriousAccessibilityViolations } from '#tests/helpers/browser.ts';

/** Committed screenshots of each journey state: small JPEGs of the visible screen. */
export const JOURNEY_SHOTS = join(SCREENSHOTS, 'journeys');

/** Committed files change only on purpose: a plain test run leaves the work tree clean. */
const UPDATE_SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';

/** The screen as a person sees it now (saved as journeys/<name>.jpg with UPDATE_SCREENSHOTS=1), then axe: no serious or critical finding. */
export async function shotAndAxe(page: Page, name: string): Promise<void> {
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
  if (UPDATE_SCREENSHOTS) {
    mkdirSync(JOURNEY_SHOTS, { recursive: true });
    await page.screenshot({ path: join(JOURNEY_SHOTS, `${name}.jpg`), type: 'jpeg', quality: 45 });
  }
  const violations = await seriousAccessibilityViolations(page);
  expect({ screen: name, violations }).toEqual({ screen: name, violations: [] });
}

/** Both widths the issue asks for, with a short name for screenshot files. */
export const WIDTHS = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const;
