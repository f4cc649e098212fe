import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { looksRightAndAccessible, PHONE, see, signedInPerson, startServerAndBrowser, stopServerAndBrowser } from '#tests/helpers/browser.ts';
import { submitRequestThroughApi } from '#tests/helpers/requests.ts';
import type { RunningServer } from '#tests/helpers/server.ts';
import { eventually } from './customer-helpers.ts';

/** Issue 26, point 8: a request cancelled through its page is found under the Cancelled filter of /exchange, at 1280 and 390 px. */
let server: RunningServer;
let browser: Browser;
const EMAIL = 'meera.iyer@example.com';
let cancelId: string;

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser());
  const token = await server.apiSignIn(EMAIL);
  await submitRequestThroughApi(server, token, { productName: 'Kept Fuser Unit', brand: 'Canon', description: 'Works, lightly used.', condition: 'good' });
  cancelId = await submitRequestThroughApi(server, token, { productName: 'Spare Drum Kit', brand: 'Brother', description: 'Bought by mistake.', condition: 'new' });
}, 180_000);
afterAll(() => stopServerAndBrowser({ server, browser }), 30_000);

describe('cancelled requests', () => {
  test('cancel through the page, then follow Show cancelled requests beside the filter with the keyboard: the request is listed with its date (1280 px)', async () => {
    const { context, page } = await signedInPerson(browser, server, EMAIL);
    await page.goto(`/exchange/${cancelId}`);
    await page.getByRole('button', { name: 'Cancel Request' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, Cancel Request' }).click();
    await page.waitForURL(/\/dashboard$/);

    await page.goto('/exchange');
    await see(page, 'Showing 1-1 of 1 request');
    expect(await page.getByTestId('exchange-card').locator('h2').allTextContents()).toEqual(['Kept Fuser Unit']);
    const filter = page.getByLabel('Filter by status');
    // the spec's status filter keeps its five options: cancelled requests are a link beside it
    expect(await filter.locator('option').allTextContents()).toEqual(['All Statuses', 'Pending', 'Approved', 'Declined', 'Completed']);
    await filter.focus();
    await page.keyboard.press('Tab');
    const link = page.getByRole('link', { name: 'Show cancelled requests' });
    expect(await link.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/exchange\?status=cancelled$/);
    await see(page, 'Cancelled requests');
    await eventually(() => page.getByTestId('cancelled-card').count(), 1);
    const card = page.getByTestId('cancelled-card');
    expect(await card.locator('h2').textContent()).toBe('Spare Drum Kit');
    await see(card, 'Cancelled on ', { exact: false });
    expect(await card.locator('time').nth(1).getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await page.getByTestId('exchange-card').count()).toBe(0);
    expect(await card.getByRole('link').count()).toBe(0);
    await looksRightAndAccessible(page, 'customer-desktop-list-cancelled');
    await context.close();
  }, 120_000);

  test('at 390 px the cancelled requests view lists one without scrolling sideways', async () => {
    // a customer of its own, who cancels through the API: tests run in a random order
    const phoneEmail = 'zoe.dsouza@example.com';
    const token = await server.apiSignIn(phoneEmail);
    const id = await submitRequestThroughApi(server, token, { productName: 'Spare Toner Cartridge', brand: 'HP', description: 'Ordered twice.', condition: 'new' });
    expect((await server.api('DELETE', `/api/exchange/${id}`, token)).status).toBe(200);
    const { context, page } = await signedInPerson(browser, server, phoneEmail, PHONE);
    await page.goto('/exchange?status=cancelled');
    await eventually(() => page.getByTestId('cancelled-card').count(), 1);
    await see(page, 'Spare Toner Cartridge');
    await see(page, 'Cancelled requests');
    expect(await page.getByLabel('Filter by status').inputValue()).toBe('');
    await page.getByRole('link', { name: 'Show my current requests' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await looksRightAndAccessible(page, 'customer-phone-list-cancelled');
    await context.close();
  }, 120_000);
});
