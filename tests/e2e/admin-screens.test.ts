import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { looksRightAndAccessible, PHONE, see, startServerAndBrowser, stopServerAndBrowser } from '#tests/helpers/browser.ts';
import { submitRequestThroughApi, submitShippingThroughApi } from '#tests/helpers/requests.ts';
import type { RunningServer } from '#tests/helpers/server.ts';
import { ADMIN_EMAIL, search, signedInOnce, tabCount } from './admin-helpers.ts';

/**
 * Every admin screen over the demo shop (requests in every state): screenshots, axe-core, the
 * tabs as URLs, paging, the credit history's page sizes, height and CSV export, and phones.
 */

let server: RunningServer;
let browser: Browser;
let admin: Page;
let adminToken: string;

const TABS = ['Pending Requests', 'Approved (Awaiting Shipping)', 'In Transit', 'Received (Pending Credit)', 'Credit History', 'Warehouse Manager'];
const item = (n: number) => ({ productName: `Ricoh SP 150 Drum ${n}`, brand: 'Ricoh', condition: 'very_good', description: `Drum unit number ${n}.` });

/** Takes `count` of `email`'s requests through to an assigned credit, through the API. */
async function creditedRequests(count: number, firstAmount: number, email: string): Promise<string[]> {
  const customer = await server.apiSignIn(email);
  const warehouses = await server.api<{ id: string; isActive: boolean }[]>('GET', '/api/admin/warehouses', adminToken);
  const warehouseId = warehouses.body.find((w) => w.isActive)!.id;
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = await submitRequestThroughApi(server, customer, { productName: `Xerox Toner ${i}`, brand: 'Xerox', condition: 'good', description: 'Half full.' });
    expect((await server.api('PUT', `/api/admin/exchange-requests/${id}/status`, adminToken, { status: 'approved', warehouseId })).status).toBe(200);
    await submitShippingThroughApi(server, customer, id);
    expect((await server.api('PUT', `/api/admin/exchange-requests/${id}/transit`, adminToken, { transitStatus: 'received' })).status).toBe(200);
    expect((await server.api('PUT', `/api/admin/exchange-requests/${id}/credit`, adminToken, { creditAmount: firstAmount + i })).status).toBe(200);
    ids.push(id);
  }
  return ids;
}

/** The user id of a signed-in customer, as the admin's credit history shows it (their newest credit). */
async function userIdOf(email: string): Promise<string> {
  const history = await server.api<{ userId: string; customerEmail: string }[]>('GET', `/api/admin/credit-history?q=&pageSize=100`, adminToken);
  const row = history.body.find((r) => r.customerEmail === email);
  if (!row) throw new Error(`no credit for ${email} in the history`);
  return row.userId;
}

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser({ DEMO_REQUESTS: 'true' }));
  adminToken = await server.apiSignIn(ADMIN_EMAIL);
}, 120_000);
afterAll(() => stopServerAndBrowser({ server, browser }), 30_000);
/** The admin, signed in once for the file; each test starts at 1280 px unless it asks for another width. */
const adminAt = signedInOnce(() => ({ browser, server }));
beforeEach(async () => {
  admin = await adminAt(ADMIN_EMAIL);
});

describe('the admin dashboard', () => {
  test('the six tabs in order, each its own URL (?tab=N) with its content; badges count tabs 0-3', async () => {
    await admin.goto('/admin');
    const links = admin.getByRole('navigation', { name: 'Admin sections' }).getByRole('link');
    const names = await links.evaluateAll((els) => els.map((e) => (e.firstChild?.textContent ?? '').trim()));
    expect(names).toEqual(TABS);
    const hrefs = await links.evaluateAll((els) => els.map((e) => e.getAttribute('href')));
    expect(hrefs).toEqual(['/admin', '/admin?tab=1', '/admin?tab=2', '/admin?tab=3', '/admin?tab=4', '/admin?tab=5']);
    // the demo shop has two pending, one awaiting shipping, one in transit, one received; other
    // tests of this file may have added more: the badges show what the API counts now
    const counts = (await server.api<{ pending: number; awaitingShipping: number; inTransit: number; received: number }>('GET', '/api/admin/exchange-requests/counts', adminToken)).body;
    const perTab = [counts.pending, counts.awaitingShipping, counts.inTransit, counts.received];
    expect(perTab.map((n, tab) => n >= [2, 1, 1, 1][tab]!)).toEqual([true, true, true, true]);
    expect([await tabCount(admin, 0), await tabCount(admin, 1), await tabCount(admin, 2), await tabCount(admin, 3)]).toEqual(perTab);
    expect(await tabCount(admin, 4)).toBeNull();

    const chips: string[][] = [];
    for (const [tab, label] of TABS.entries()) {
      await admin.goto(`/admin?tab=${tab}`);
      expect(await admin.getByRole('link', { name: new RegExp(`^${label.replace(/[()]/g, '\\$&')}`) }).getAttribute('aria-current')).toBe('page');
      await admin.getByRole('heading', { level: 2, name: label, exact: true }).waitFor();
      if (tab <= 3) {
        expect(await admin.getByRole('searchbox', { name: 'Search by product name, brand, or user email' }).count()).toBe(1);
        const headers = await admin.getByRole('columnheader').allTextContents();
        expect(headers).toEqual(['Product', 'Brand', 'Condition', 'User Email', 'Status', 'Date', 'Age', 'Action']);
        chips.push(await admin.getByTestId('admin-request-row').locator('td:nth-child(5)').allTextContents());
      }
      await looksRightAndAccessible(admin, `admin-tab-${tab}`);
    }
    const chip = ['Pending', 'Awaiting Shipping', 'Shipped', 'Received'];
    expect(chips).toEqual(perTab.map((n, tab) => Array(Math.min(n, 10)).fill(chip[tab])));
  }, 90_000);

  test('pages of 10 by default, first/previous/next/last as links, the page in the URL', async () => {
    const customer = await server.apiSignIn('meera.iyer@example.com');
    for (let n = 1; n <= 11; n++) await submitRequestThroughApi(server, customer, item(n));
    await admin.goto('/admin');
    const whole = await tabCount(admin, 0);
    expect(whole).toBeGreaterThanOrEqual(11);
    await admin.goto('/admin?q=ricoh');
    // the badge counts the whole queue, not the search
    expect(await tabCount(admin, 0)).toBe(whole);
    await see(admin, 'Showing 1-10 of 11 requests');
    expect(await admin.getByTestId('admin-request-row').count()).toBe(10);
    expect(await admin.getByRole('button', { name: 'Previous page' }).isDisabled()).toBe(true);
    await admin.getByRole('link', { name: 'Next page' }).click();
    await see(admin, 'Showing 11-11 of 11 requests');
    expect(new URL(admin.url()).search).toBe('?q=ricoh&page=2');
    expect(await admin.getByTestId('admin-request-row').count()).toBe(1);
    // the pending tab is oldest first: the last page holds the newest
    expect(await admin.getByTestId('admin-request-row').first().textContent()).toContain('Ricoh SP 150 Drum 11');
    await admin.getByLabel('Rows per page').selectOption('25');
    await see(admin, 'Showing 1-11 of 11 requests');
    expect(new URL(admin.url()).search).toBe('?q=ricoh&pageSize=25');
    // a page past the end (the list shrank) shows the last page
    await admin.goto('/admin?q=ricoh&page=7');
    await admin.waitForURL('**/admin?q=ricoh&page=2');
    await see(admin, 'Showing 11-11 of 11 requests');
    // the tab links keep the search on tabs 0-3
    expect(await admin.getByRole('link', { name: /^In Transit/ }).getAttribute('href')).toBe('/admin?tab=2&q=ricoh');
  }, 90_000);

  test('Refresh renders the tab again with a progress bar while it works', async () => {
    await admin.goto('/admin?tab=1');
    const before = await tabCount(admin, 0);
    const customer = await server.apiSignIn('asha.rao@example.com');
    await submitRequestThroughApi(server, customer, { productName: 'Canon FM4-8400 Fuser', brand: 'Canon', condition: 'fair', description: 'Works.' });
    await admin.getByRole('button', { name: 'Refresh' }).click();
    await admin.waitForFunction((n) => document.querySelector('[data-testid="tab-count-0"]')?.textContent?.replace(/\D/g, '') === String(n), (before ?? 0) + 1);
    expect(await admin.getByRole('progressbar', { name: 'Refreshing' }).count()).toBe(0);
  }, 60_000);
});

describe('the credit history', () => {
  test("columns, 'Exchange Credit', Success; page sizes 5/10/25 (10 by default); at most 600 px tall; search; 'No credit history found'", async () => {
    // zoe's twelve credits, shown by her user id: whatever else the history holds
    const ids = await creditedRequests(12, 101, 'zoe.dsouza@example.com');
    const zoe = await userIdOf('zoe.dsouza@example.com');
    await admin.goto(`/admin?tab=4&q=${zoe}`);
    expect(await admin.getByRole('columnheader').allTextContents()).toEqual(['User ID', 'Exchange ID', 'Date', 'Type', 'Amount', 'Status']);
    expect(await admin.getByLabel('Rows per page').inputValue()).toBe('10');
    expect(await admin.getByLabel('Rows per page').locator('option').allTextContents()).toEqual(['5', '10', '25']);
    const rows = admin.getByTestId('credit-history-row');
    expect(await rows.count()).toBe(10);
    await see(admin, 'Showing 1-10 of 12 records');
    expect(await rows.first().getByRole('cell').nth(3).textContent()).toBe('Exchange Credit');
    // the demo shop runs a 10 % bonus campaign: ₹112 credited is ₹123 pushed, the bonus shown apart
    expect(await rows.first().getByRole('cell').nth(4).textContent()).toBe('₹123.00₹112.00 + ₹11.00 bonus');
    expect(await rows.first().getByRole('cell').nth(5).textContent()).toBe('Success');

    await admin.getByLabel('Rows per page').selectOption('5');
    await see(admin, 'Showing 1-5 of 12 records');
    expect(new URL(admin.url()).search).toBe(`?tab=4&q=${zoe}&pageSize=5`);
    await admin.getByLabel('Rows per page').selectOption('25');
    await see(admin, 'Showing 1-12 of 12 records');
    const box = await admin.locator('[data-slot="table-container"]').boundingBox();
    expect(box!.height).toBeLessThanOrEqual(600);
    expect(await admin.locator('[data-slot="table-container"]').evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    await looksRightAndAccessible(admin, 'admin-credit-history-25');

    await search(admin, 'Search by user ID or exchange ID', ids[3]!.toUpperCase());
    expect(await rows.count()).toBe(1);
    // the customer and the product lead the row; the raw ids open under the customer, by keyboard too
    expect(await rows.first().getByTestId('credit-customer').textContent()).toBe('zoe.dsouza@example.com');
    expect(await rows.first().getByRole('cell').nth(1).getByRole('link').getAttribute('title')).toBe(`Exchange ID ${ids[3]!}`);
    const rawIds = rows.first().getByTestId('credit-ids');
    expect(await rawIds.getByTestId('credit-exchange-id').isVisible()).toBe(false);
    await rawIds.locator('summary').focus();
    await admin.keyboard.press('Enter');
    await rawIds.getByTestId('credit-exchange-id').waitFor();
    expect(await rawIds.getByTestId('credit-exchange-id').textContent()).toBe(ids[3]!);
    expect(await rawIds.getByTestId('credit-user-id').textContent()).toBe(zoe);
    expect(await rawIds.locator('summary').textContent()).toBe('IDs of the credit to zoe.dsouza@example.com');
    await looksRightAndAccessible(admin, 'admin-credit-history-ids');
    // the search finds the email the row shows
    await search(admin, 'Search by user ID or exchange ID', 'ZOE.DSOUZA@');
    expect(await rows.count()).toBe(12); // zoe's twelve, nobody else's
    await search(admin, 'Search by user ID or exchange ID', 'ffffffff-0000');
    await see(admin, 'No credit history found');
    await looksRightAndAccessible(admin, 'admin-credit-history-empty');
  }, 120_000);

  test('Export CSV downloads the history as filtered on the page', async () => {
    // kiran's own three credits (nobody else in this file credits kiran), among asha's and others'
    await creditedRequests(3, 301, 'kiran.patel@example.com');
    await creditedRequests(1, 401, 'asha.rao@example.com');
    const kiran = await userIdOf('kiran.patel@example.com');
    await admin.goto(`/admin?tab=4&q=${kiran}`);
    const [download] = await Promise.all([admin.waitForEvent('download'), admin.getByRole('link', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^credit-history-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Date,User ID,Exchange ID,Type,Amount,Base,Bonus,Currency,Status,Customer Email,Transaction ID,Note,Ledger ID,Push Attempts,Pushed At,Push Error');
    expect(lines).toHaveLength(4); // kiran's 3 credits, not asha's
    expect(lines.slice(1).every((l) => l.includes(`,${kiran},`) && l.includes(',Exchange Credit,') && l.includes(',Success,kiran.patel@example.com,'))).toBe(true);
    // amount, base and bonus: the demo shop's 10 % campaign adds its bonus apart
    expect(lines.slice(1).map((l) => /,(\d+\.\d\d),(\d+\.\d\d),(\d+\.\d\d),INR,/.exec(l)?.slice(1))).toEqual([
      ['333.00', '303.00', '30.00'],
      ['332.00', '302.00', '30.00'],
      ['331.00', '301.00', '30.00'],
    ]);
  }, 60_000);
});

describe('admin screens on a phone and with the keyboard', () => {
  test('the tabs scroll sideways, the table scrolls inside its box, the detail stacks', async () => {
    const page = await adminAt(ADMIN_EMAIL, PHONE);
    await page.goto('/admin?tab=0');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await looksRightAndAccessible(page, 'admin-phone-tab-0');
    await page.goto('/admin?tab=5');
    // the row of tabs scrolls to show the current one
    const current = await page.getByRole('link', { name: 'Warehouse Manager' }).boundingBox();
    expect(current!.x).toBeGreaterThanOrEqual(0);
    expect(current!.x + current!.width).toBeLessThanOrEqual(PHONE.width);
    await looksRightAndAccessible(page, 'admin-phone-warehouses');
    await page.goto('/admin?tab=1');
    await page.getByRole('link', { name: /^View/ }).first().click();
    await page.waitForURL('**/admin/exchange/**');
    await page.getByRole('heading', { name: 'Exchange Process' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await looksRightAndAccessible(page, 'admin-phone-detail');
  }, 90_000);

  test('the warehouse dialog opens, moves and closes with the keyboard, and focus comes back', async () => {
    await admin.goto('/admin?tab=5');
    const add = admin.getByRole('button', { name: 'Add Warehouse' });
    await add.focus();
    await admin.keyboard.press('Enter');
    const dialog = admin.getByRole('dialog', { name: 'Add Warehouse' });
    await dialog.waitFor();
    expect(await admin.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('name');
    await admin.keyboard.press('Tab');
    expect(await admin.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('addressLine1');
    await admin.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await admin.evaluate(() => document.activeElement?.textContent)).toBe('Add Warehouse');
  }, 60_000);
});
