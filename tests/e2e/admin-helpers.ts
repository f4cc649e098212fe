import { expect } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, see, signedInPerson } from '#tests/helpers/browser.ts';
import { png } from '#tests/helpers/images.ts';
import type { RequestFields } from '#tests/helpers/requests.ts';
import type { RunningServer } from '#tests/helpers/server.ts';

/** Helpers of the admin browser tests (tests/e2e/admin-*.test.ts). */

export const ADMIN_EMAIL = 'admin@swappoints.demo';

/** Types into the dashboard's search and waits for the server to render the result (the URL carries `q`). */
export async function search(page: Page, placeholder: string, text: string): Promise<void> {
  await page.getByRole('searchbox', { name: placeholder }).fill(text);
  const expected = text.trim() ? `q=${encodeURIComponent(text.trim()).replace(/%20/g, '+')}` : null;
  await page.waitForURL((url) => (expected ? url.search.includes(expected) : !url.search.includes('q=')), { timeout: 15_000 });
  // the address bar changes a moment before the result shows: wait for the panel rendered for this search
  await page.locator(`[data-testid="admin-tab-panel"][data-q="${text.trim().replace(/"/g, '\\"')}"]`).waitFor({ timeout: 15_000 });
}

/** The ₹ amount shown on the customer's dashboard card, as a number. */
export async function dashboardCredit(page: Page): Promise<number> {
  await page.goto('/dashboard');
  const text = (await page.getByTestId('credit-amount').textContent()) ?? '';
  expect(text.startsWith('₹')).toBe(true);
  return Number(text.replace(/[₹,]/g, ''));
}

/** The count badge of an admin tab, or null when it is hidden. */
export async function tabCount(page: Page, tab: number): Promise<number | null> {
  const badge = page.getByTestId(`tab-count-${tab}`);
  return (await badge.count()) === 0 ? null : Number(await badge.textContent().then((t) => (t ?? '').replace(/\D/g, '')));
}

/** Opens an admin tab by clicking its link (a client-side navigation) and waits for its heading. */
export async function openTab(page: Page, label: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: new RegExp(`^${label.replace(/[()]/g, '\\$&')}`) }).click();
  await page.getByRole('heading', { level: 2, name: label, exact: true }).waitFor();
}

/** The customer asks on /exchange/new, with a real PNG photo; returns the new request's id (from /exchange/{id}). */
export async function submitRequestThroughPages(page: Page, fields: RequestFields & { conditionLabel: string }): Promise<string> {
  await page.goto('/exchange/new');
  await page.getByLabel('Product Name').fill(fields.productName);
  await page.getByLabel('Brand').fill(fields.brand);
  await page.getByLabel('Condition').selectOption({ label: fields.conditionLabel });
  await page.getByLabel('Description').fill(fields.description);
  await page.locator('input[type="file"]').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from(png(64, 48)) });
  await see(page, '1/5 images');
  await page.getByText('Add Photos').waitFor(); // 'Uploading…' until it is stored
  await page.getByRole('button', { name: 'Submit Request' }).click();
  await page.waitForURL(/\/exchange\/[0-9a-f-]{36}$/);
  return page.url().split('/').pop()!;
}

/** The customer adds shipping details on /exchange/{id} ('Add Details', 'Submit Shipping Details'). */
export async function submitShippingThroughPages(page: Page, id: string, carrierName: string, trackingNumber: string): Promise<void> {
  await page.goto(`/exchange/${id}`);
  await page.getByRole('button', { name: 'Add Details' }).click();
  const dialog = page.getByRole('dialog', { name: 'Submit Shipping Details' });
  await dialog.getByLabel('Carrier Name').fill(carrierName);
  await dialog.getByLabel('Tracking Number').fill(trackingNumber);
  await dialog.getByLabel('Shipping Date').fill(new Date().toISOString().slice(0, 10));
  await dialog.getByRole('button', { name: 'Submit', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

/**
 * Each person signed in once for a test file (`signedInPerson`, on first use), then set to the width
 * each test asks for: tests that start with `page.goto` need no sign-in of their own (two API calls,
 * a mail read and a page load; a closed person's tab is handed on emptied, signed out). (`browser`
 * and `server` are read when called: they are started in beforeAll.)
 */
export function signedInOnce(started: () => { browser: Browser; server: RunningServer }) {
  const pages = new Map<string, Promise<Page>>();
  return async (email: string, viewport: { width: number; height: number } = DESKTOP): Promise<Page> => {
    let page = pages.get(email);
    if (!page) {
      const { browser, server } = started();
      page = signedInPerson(browser, server, email, viewport).then((person) => person.page);
      pages.set(email, page);
    }
    await (await page).setViewportSize(viewport);
    return page;
  };
}
