import { beforeAll, describe, expect, test } from 'bun:test';
import { DESKTOP, looksRightAndAccessible, screenshotNow, see, seriousAccessibilityViolations, signedInPerson, useServerAndBrowser } from '#tests/helpers/browser.ts';
import { submitRequestThroughApi } from '#tests/helpers/requests.ts';
import { eventually } from './customer-helpers.ts';

/** A customer with many requests: the dashboard's 'View All Requests', /exchange's pages, and refreshing. */
const EMAIL = 'kiran.patel@example.com';
const TOTAL = 13;

const app = useServerAndBrowser();
beforeAll(async () => {
  const token = await app.server.apiSignIn(EMAIL);
  // oldest first, so 'Toner 13' is the newest
  for (let n = 1; n <= TOTAL; n++) {
    await submitRequestThroughApi(app.server, token, {
      productName: `Toner ${n}`,
      brand: n % 2 ? 'Brother' : 'Epson',
      description: `Toner cartridge number ${n}, half full.`,
      condition: 'good',
    });
  }
}, 180_000);

describe('many requests', () => {
  test("the dashboard lists the newest 5 and 'View All Requests' (hidden while searching)", async () => {
    const { context, page } = await signedInPerson(app.browser, app.server, EMAIL);
    await see(page, `${TOTAL} Requests`);
    expect(await page.getByTestId('recent-exchange').locator('h3').allTextContents()).toEqual(['Toner 13', 'Toner 12', 'Toner 11', 'Toner 10', 'Toner 9']);
    const viewAll = page.getByRole('link', { name: 'View All Requests' });
    expect(await viewAll.getAttribute('href')).toBe('/exchange');
    await page.getByPlaceholder('Search exchanges...').fill('epson');
    await eventually(() => page.getByTestId('recent-exchange').count(), 6);
    await eventually(() => viewAll.count(), 0);
    await page.getByPlaceholder('Search exchanges...').fill('');

    // refreshing shows the bar and skeletons until the fresh page arrives
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/RSC/**', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('progressbar', { name: 'Refreshing' }).waitFor();
    expect(await page.locator('[aria-busy="true"] [data-slot="skeleton"]').count()).toBeGreaterThan(0);
    await screenshotWhileRefreshing();
    release();
    await page.getByRole('progressbar', { name: 'Refreshing' }).waitFor({ state: 'detached' });
    await see(page, 'Toner 13');
    await page.unroute('**/RSC/**');

    await viewAll.click();
    await page.waitForURL('**/exchange');
    await see(page, `Showing 1-10 of ${TOTAL} requests`);
    await context.close();

    async function screenshotWhileRefreshing() {
      // not the shared helper: it waits for animations to end, and the refresh bar's never does
      await screenshotNow(page, 'customer-desktop-dashboard-refreshing');
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
    }
  }, 120_000);

  test('/exchange pages by 10 with first and last; the page is in the URL', async () => {
    const { context, page } = await signedInPerson(app.browser, app.server, EMAIL, DESKTOP, '/exchange');
    await see(page, `Showing 1-10 of ${TOTAL} requests`);
    await eventually(() => page.getByTestId('exchange-card').count(), 10);
    const pagination = page.getByRole('navigation', { name: 'Pagination' });
    await pagination.getByRole('link', { name: 'Last page' }).click();
    await page.waitForURL('**/exchange?page=2');
    await see(page, `Showing 11-${TOTAL} of ${TOTAL} requests`);
    expect(await page.getByTestId('exchange-card').locator('h2').allTextContents()).toEqual(['Toner 3', 'Toner 2', 'Toner 1']);
    expect(await pagination.getByRole('link', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');
    await looksRightAndAccessible(page, 'customer-desktop-list-page-2');
    await page.reload();
    await see(page, `Showing 11-${TOTAL} of ${TOTAL} requests`);
    await pagination.getByRole('link', { name: 'First page' }).click();
    await page.waitForURL(/\/exchange$/);
    await see(page, `Showing 1-10 of ${TOTAL} requests`);

    // search and status with a page: a new search starts at page 1
    await page.goto('/exchange?status=pending&page=2');
    await see(page, `Showing 11-${TOTAL} of ${TOTAL} requests`);
    await page.getByPlaceholder('Search by product name, brand, or description').fill('brother');
    await page.waitForURL('**/exchange?q=brother&status=pending');
    await see(page, 'Showing 1-7 of 7 requests');
    // an old link past the last page shows the last page
    await page.goto('/exchange?page=9');
    await see(page, `Showing 11-${TOTAL} of ${TOTAL} requests`);
    await context.close();
  }, 120_000);
});
