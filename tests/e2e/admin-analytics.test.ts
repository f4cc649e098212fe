import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { addDays } from '#api/modules/analytics/rules.ts';
import { PHONE, looksRightAndAccessible, markDocument, sameDocument, see, startServerAndBrowser, stopServerAndBrowser } from '#tests/helpers/browser.ts';
import { submitRequestThroughApi, submitShippingThroughApi } from '#tests/helpers/requests.ts';
import type { RunningServer } from '#tests/helpers/server.ts';
import { ADMIN_EMAIL, signedInOnce } from './admin-helpers.ts';

/** Admin → Analytics: SVG charts with a table beside each, the range in the URL, at 1280 and 390 px, axe clean. */

let server: RunningServer;
let browser: Browser;
let desktop: Page;
let figures: any;

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser());
  const [adminToken, customerToken] = await Promise.all([server.apiSignIn(ADMIN_EMAIL), server.apiSignIn('asha.rao@example.com')]);
  // one more credit today, through the API, on top of the demo shop
  const warehouses = await server.api<{ id: string; isActive: boolean }[]>('GET', '/api/admin/warehouses', adminToken);
  const id = await submitRequestThroughApi(server, customerToken, { productName: 'Brother TN-2420 Toner', brand: 'Brother', condition: 'new', description: 'Sealed.' });
  await server.api('PUT', `/api/admin/exchange-requests/${id}/status`, adminToken, { status: 'approved', warehouseId: warehouses.body.find((w) => w.isActive)!.id });
  await submitShippingThroughApi(server, customerToken, id);
  await server.api('PUT', `/api/admin/exchange-requests/${id}/transit`, adminToken, { transitStatus: 'received' });
  expect((await server.api('PUT', `/api/admin/exchange-requests/${id}/credit`, adminToken, { creditAmount: 1234 })).status).toBe(200);
  figures = (await server.api('GET', '/api/admin/analytics', adminToken)).body;
}, 180_000);
afterAll(async () => {
  await stopServerAndBrowser({ server, browser });
}, 30_000);
/** The admin, signed in once for the file; each test starts at 1280 px unless it asks for another width. */
const adminAt = signedInOnce(() => ({ browser, server }));
beforeEach(async () => {
  desktop = await adminAt(ADMIN_EMAIL);
});

/** What a chart draws: one bar group per table row, each with the value the table gives. */
async function barsAndRows(page: Page, chart: string) {
  const section = page.getByTestId(`chart-${chart}`);
  const bars = await section.locator('svg g[data-value]').evaluateAll((gs) => gs.map((g) => Number(g.getAttribute('data-value'))));
  const rows = await section.locator('tbody tr').count();
  return { bars, rows };
}

describe('Admin → Analytics', () => {
  test('at 1280 px: linked from the dashboard, the last 30 days by default, figures as the API gives them, one bar per table row; 7 days and a custom range go in the URL', async () => {
    await desktop.goto('/admin');
    await markDocument(desktop);
    await desktop.getByRole('link', { name: 'Analytics' }).click();
    await desktop.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
    expect(await sameDocument(desktop)).toBe(true); // followed in the page, not a new page load
    expect(await desktop.getByRole('link', { name: 'Last 30 days' }).getAttribute('aria-current')).toBe('page');
    const summary = desktop.getByTestId('analytics-summary');
    await see(summary, `₹${figures.credit.total.toLocaleString('en-IN', { minimumFractionDigits: 2 })}`);
    await see(summary, String(figures.requests.received));
    expect(figures.credit.total).toBeGreaterThanOrEqual(1234);

    const credit = await barsAndRows(desktop, 'credit');
    expect(credit.rows).toBe(30);
    expect(credit.bars).toEqual(figures.credit.series.map((s: any) => s.amount));
    const requests = await barsAndRows(desktop, 'requests');
    expect(requests.bars).toEqual(figures.requests.series.map((s: any) => s.received));
    const brands = desktop.getByTestId('chart-brands');
    await see(brands.getByRole('table'), 'Brother');
    expect(await desktop.locator('script[src*="chart"]').count()).toBe(0);
    await looksRightAndAccessible(desktop, 'admin-analytics-desktop');

    await desktop.getByRole('link', { name: 'Last 7 days' }).click();
    await desktop.waitForURL(/\/admin\/analytics\?range=7$/);
    await desktop.getByRole('link', { name: 'Last 7 days', exact: true }).and(desktop.locator('[aria-current="page"]')).waitFor();
    expect((await barsAndRows(desktop, 'credit')).rows).toBe(7);
    expect(await sameDocument(desktop)).toBe(true);

    await desktop.getByLabel('From', { exact: true }).fill(figures.to.slice(0, 8) + '01');
    await desktop.getByLabel('To', { exact: true }).fill(figures.to);
    await desktop.getByRole('button', { name: 'Show' }).click();
    await desktop.waitForURL((url) => url.searchParams.get('from') === figures.to.slice(0, 8) + '01' && url.searchParams.get('to') === figures.to);
    expect((await barsAndRows(desktop, 'credit')).rows).toBe(Number(figures.to.slice(8)));
  }, 120_000);

  test('at 390 px: nothing wider than the screen, labels readable, axe clean; a backwards range says why', async () => {
    const phone = await adminAt(ADMIN_EMAIL, PHONE);
    await phone.goto('/admin/analytics?range=90');
    await phone.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const sizes = await phone.getByTestId('chart-credit').locator('figure span').evaluateAll((spans) => spans.map((s) => parseFloat(getComputedStyle(s).fontSize)));
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(12);
    const token = await server.apiSignIn(ADMIN_EMAIL);
    const ninety = (await server.api('GET', `/api/admin/analytics?from=${addDays(figures.to, -89)}&to=${figures.to}`, token)).body;
    expect(ninety.bucket).toBe('week');
    expect(await barsAndRows(phone, 'credit')).toEqual({ bars: ninety.credit.series.map((s: any) => s.amount), rows: ninety.credit.series.length });
    await looksRightAndAccessible(phone, 'admin-analytics-phone');

    await phone.goto('/admin/analytics?from=2026-11-20&to=2026-11-01');
    await see(phone, 'from must not be after to');
  }, 120_000);
});
