import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import type { Browser } from 'playwright-core';
import { looksRightAndAccessible, PHONE, see, signedInPerson, startServerAndBrowser, stopServerAndBrowser } from '#tests/helpers/browser.ts';
import { submitRequestThroughApi } from '#tests/helpers/requests.ts';
import type { RunningServer } from '#tests/helpers/server.ts';

/** Issue 25, points 1 and 2 on the customer's dashboard at 390 px: download my data, delete my account. */
let server: RunningServer;
let browser: Browser;
const EMAIL = 'priya.nair@example.com';

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser());
  expect((await server.cli('customers', 'add', EMAIL, '--name', 'Priya Nair')).code).toBe(0);
  const token = await server.apiSignIn(EMAIL);
  await submitRequestThroughApi(server, token, { productName: 'Spare Maintenance Kit', brand: 'Kyocera', description: 'Never fitted.', condition: 'new' });
}, 180_000);
afterAll(() => stopServerAndBrowser({ server, browser }), 30_000);

describe('your data on the dashboard', () => {
  test('at 390 px: Download my data gives the ZIP of my requests; Delete my account asks first, then signs me out for good', async () => {
    const { context, page } = await signedInPerson(browser, server, EMAIL, PHONE);
    await page.goto('/dashboard');
    await see(page, 'Your data');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await looksRightAndAccessible(page, 'customer-phone-your-data');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download my data' }).click()]);
    expect(download.suggestedFilename()).toBe('swappoints-my-data.zip');
    const data = JSON.parse(strFromU8(unzipSync(new Uint8Array(readFileSync((await download.path())!)))['swappoints-data.json']!));
    expect(data.email).toBe(EMAIL);
    expect(data.exchange_requests.map((r: { productName: string }) => r.productName)).toEqual(['Spare Maintenance Kit']);

    // asked first: keeping the account changes nothing
    await page.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('alertdialog');
    await see(dialog, 'This cannot be undone.', { exact: false });
    await dialog.getByRole('button', { name: 'No, keep my account' }).click();
    await see(page, 'Your data');

    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, delete my account' }).click();
    await page.waitForURL(/\/email-signin/);
    await page.goto('/dashboard');
    await page.waitForURL(/\/email-signin/);
    await context.close();

    const users = await server.cli('privacy', 'erase', EMAIL, '--json');
    expect(users.code).toBe(2);
    expect(users.stderr).toContain(`No customer with the email ${EMAIL} is held here`);
  }, 120_000);
});
