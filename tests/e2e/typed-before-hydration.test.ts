import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { hydrated, newPerson, see, signedInPerson, startServerAndBrowser, stopServerAndBrowser } from '#tests/helpers/browser.ts';
import type { RunningServer } from '#tests/helpers/server.ts';

/**
 * On a slow phone the server's form shows a second or more before React takes it over. What a
 * person types in that time must still be there, and be what is sent, once the page is live.
 * The page's scripts are held back while the test types, as a slow link would hold them.
 */
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser());
}, 120_000);
afterAll(async () => {
  await stopServerAndBrowser({ server, browser });
}, 30_000);

/** Opens `path` in a new tab of `context` with its scripts held; returns the tab and what lets them through. */
async function openWithScriptsHeld(context: BrowserContext, path: string): Promise<{ page: Page; release: () => Promise<void> }> {
  const page = await context.newPage();
  const held: Route[] = [];
  let holding = true;
  await page.route('**/*.js', (route) => void (holding ? held.push(route) : route.continue()));
  await page.goto(path, { waitUntil: 'commit' });
  return {
    page,
    release: async () => {
      holding = false;
      for (const route of held) await route.continue();
      await hydrated(page);
    },
  };
}

describe('typing before the page has finished loading', () => {
  test('the sign-in email typed early is kept, and the link is sent to it', async () => {
    const { context } = await newPerson(browser, server);
    const { page, release } = await openWithScriptsHeld(context, '/email-signin');
    await page.getByLabel('Email address').fill('asha.rao@example.com');
    expect(await page.getByRole('button', { name: 'Continue' }).isDisabled()).toBe(true); // not live yet
    await release();
    expect(await page.getByLabel('Email address').inputValue()).toBe('asha.rao@example.com');
    await page.getByRole('button', { name: 'Continue' }).click();
    await see(page, "Account found for asha.rao@example.com. We've emailed you a sign-in link.");
    await context.close();
  }, 60_000);

  test('the new request form keeps the product, brand, condition and description typed early', async () => {
    const { context } = await signedInPerson(browser, server, 'asha.rao@example.com');
    const { page, release } = await openWithScriptsHeld(context, '/exchange/new');
    await page.getByLabel(/^Product Name/).fill('HP 680 Black Ink Cartridge');
    await page.getByLabel(/^Brand/).fill('HP');
    await page.getByLabel(/^Condition/).selectOption('good');
    await page.getByLabel(/^Description/).fill('Half used, sealed nozzle.');
    await release();
    expect(await page.getByLabel(/^Product Name/).inputValue()).toBe('HP 680 Black Ink Cartridge');
    expect(await page.getByLabel(/^Brand/).inputValue()).toBe('HP');
    expect(await page.getByLabel(/^Condition/).inputValue()).toBe('good');
    expect(await page.getByLabel(/^Description/).inputValue()).toBe('Half used, sealed nozzle.');
    // and the form's state holds them: sent without a photo, only the photo is asked for
    await page.getByRole('button', { name: 'Submit Request' }).click();
    await see(page, 'Please upload at least one image of the product');
    expect(await page.getByText('Please fill in all required fields').count()).toBe(0);
    await context.close();
  }, 90_000);

  test("a search typed early in the customer's list and the admin's table is kept and applied", async () => {
    const customer = await signedInPerson(browser, server, 'asha.rao@example.com');
    const list = await openWithScriptsHeld(customer.context, '/exchange');
    await list.page.getByRole('searchbox', { name: 'Search by product name, brand, or description' }).fill('toner');
    await list.release();
    const search = list.page.getByRole('searchbox', { name: 'Search by product name, brand, or description' });
    expect(await search.inputValue()).toBe('toner');
    await search.press('Enter');
    await list.page.waitForURL(/\/exchange\?q=toner/);
    expect(await search.inputValue()).toBe('toner');
    await customer.context.close();

    const admin = await signedInPerson(browser, server, 'admin@swappoints.demo');
    const table = await openWithScriptsHeld(admin.context, '/admin');
    const box = table.page.getByRole('search').getByRole('searchbox');
    await box.fill('asha');
    await table.release();
    expect(await box.inputValue()).toBe('asha');
    await table.page.waitForURL(/[?&]q=asha/); // applied on its own, as typing after load would be
    await admin.context.close();
  }, 120_000);
});

