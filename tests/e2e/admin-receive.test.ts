import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { requestReference } from '#api/modules/requests/reference.ts';
import { DESKTOP, looksRightAndAccessible, PHONE, see, signedInPerson, startServerAndBrowser, stopServerAndBrowser } from '#tests/helpers/browser.ts';
import { submitRequestThroughApi, submitShippingThroughApi } from '#tests/helpers/requests.ts';
import type { RunningServer } from '#tests/helpers/server.ts';
import { ADMIN_EMAIL } from './admin-helpers.ts';

/** Admin → Receive (a scanner types a code and Enter) and the admin's shipping form on the request page (issue 27). */

let server: RunningServer;
let browser: Browser;
let adminToken: string;
let customerToken: string;
let warehouseId: string;

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser());
  adminToken = await server.apiSignIn(ADMIN_EMAIL);
  customerToken = await server.apiSignIn('asha.rao@example.com');
  warehouseId = (await server.api<{ id: string }[]>('GET', '/api/admin/warehouses', adminToken)).body[0]!.id;
}, 120_000);
afterAll(() => stopServerAndBrowser({ server, browser }), 30_000);

async function approvedRequest(productName: string): Promise<string> {
  const id = await submitRequestThroughApi(server, customerToken, { productName, brand: 'HP', condition: 'good', description: 'Used once, boxed.' });
  expect((await server.api('PUT', `/api/admin/exchange-requests/${id}/status`, adminToken, { status: 'approved', warehouseId })).status).toBe(200);
  return id;
}

/** what a USB scanner does: types the code's characters into the focused field, then Enter */
async function scan(page: Page, code: string) {
  await page.keyboard.type(code, { delay: 5 });
  await page.keyboard.press('Enter');
}

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? null);
const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe('Admin → Receive', () => {
  for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    test(`${name}: a scanned tracking number receives its request, shows it with its photos, and the input is ready for the next scan`, async () => {
      const id = await approvedRequest(`LaserJet Drum ${name}`);
      const tracking = `DLV${name.toUpperCase()}${Date.now()}`;
      await submitShippingThroughApi(server, customerToken, id, 'Delhivery', tracking);
      const { context, page } = await signedInPerson(browser, server, ADMIN_EMAIL, viewport);
      if (name === 'desktop') {
        await page.goto('/admin');
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Receive' }).click();
      } else {
        await page.goto('/admin/receive');
      }
      await page.getByRole('heading', { name: 'Receive', level: 1 }).waitFor();
      await page.waitForFunction(() => document.activeElement?.id === 'receive-code');

      await scan(page, tracking.toLowerCase());
      const outcome = page.getByTestId('receive-outcome');
      await see(outcome, `Received: LaserJet Drum ${name}`);
      await see(outcome, requestReference(id));
      expect(await outcome.getByRole('img').count()).toBeGreaterThan(0);
      expect(await page.getByLabel('Tracking number or packing slip reference').inputValue()).toBe('');
      expect(await focusedId(page)).toBe('receive-code');
      expect(await overflows(page)).toBe(false);
      await looksRightAndAccessible(page, `admin-receive-${name}`);

      // the same parcel again: refused with when it was received, nothing changes, ready again
      await scan(page, requestReference(id));
      await see(outcome, `Not received: ${requestReference(id)}`);
      expect(await outcome.innerText()).toContain('was already received on');
      expect(await focusedId(page)).toBe('receive-code');

      await scan(page, 'NOPE-404');
      await see(outcome, 'No request found for NOPE-404');
      expect(await focusedId(page)).toBe('receive-code');
      // Chromium here has no BarcodeDetector on Linux desktop: no camera button is offered where it cannot work
      const hasDetector = await page.evaluate(() => 'BarcodeDetector' in window);
      expect(await page.getByRole('button', { name: 'Scan with camera' }).count()).toBe(hasDetector ? 1 : 0);
      const detail = await server.api('GET', `/api/admin/exchange-requests/${id}`, adminToken);
      expect(detail.body.transitStatus).toBe('received');
      await context.close();
    }, 90_000);
  }
});

test('two parcels scanned back to back, the second before the first is answered: both are received; with BarcodeDetector a camera scan is offered', async () => {
  const parcels = [];
  for (const n of [1, 2]) {
    const id = await approvedRequest(`Toner pair ${n}`);
    const tracking = `PAIR${n}X${Date.now()}`;
    await submitShippingThroughApi(server, customerToken, id, 'Blue Dart', tracking);
    parcels.push({ id, tracking });
  }
  const { context, page } = await signedInPerson(browser, server, ADMIN_EMAIL, DESKTOP);
  // a stand-in for the browser's BarcodeDetector (Chromium on Linux has none): only whether the button is offered is read here
  await page.addInitScript(() => {
    (window as unknown as { BarcodeDetector: unknown }).BarcodeDetector = class {
      detect() {
        return Promise.resolve([]);
      }
    };
  });
  await page.goto('/admin/receive');
  await page.waitForFunction(() => document.activeElement?.id === 'receive-code');
  await page.getByRole('button', { name: 'Scan with camera' }).waitFor();
  await page.keyboard.type(parcels[0]!.tracking);
  await page.keyboard.press('Enter');
  await page.keyboard.type(parcels[1]!.tracking);
  await page.keyboard.press('Enter');
  await see(page.getByTestId('receive-outcome'), 'Received: Toner pair', { exact: false });
  await page.getByRole('button', { name: 'Receive', exact: true }).waitFor();
  for (const { id } of parcels) expect((await server.api('GET', `/api/admin/exchange-requests/${id}`, adminToken)).body.transitStatus).toBe('received');
  expect(await focusedId(page)).toBe('receive-code');
  await context.close();
}, 60_000);

test('the header bar keeps Receive beside Admin Panel without overflowing at its narrowest (600 px)', async () => {
  const { context, page } = await signedInPerson(browser, server, ADMIN_EMAIL, { width: 600, height: 800 });
  await page.goto('/admin/receive');
  const nav = page.getByRole('navigation', { name: 'Main' });
  expect(await nav.getByRole('link').allTextContents()).toEqual(['Dashboard', 'New Exchange', 'Admin Panel', 'Receive']);
  expect(await overflows(page)).toBe(false);
  const menu = await page.getByRole('button', { name: /^Account menu for/ }).boundingBox();
  expect(menu!.x + menu!.width).toBeLessThanOrEqual(600);
  await context.close();
}, 60_000);

describe('the admin shipping form on the request page', () => {
  test('a parcel that came without tracking: the admin enters the details, a toast, the timeline says an admin entered them, then Mark as Received works', async () => {
    const id = await approvedRequest('Fuser Unit without a slip');
    const { context, page } = await signedInPerson(browser, server, ADMIN_EMAIL, DESKTOP);
    await page.goto(`/admin/exchange/${id}`);
    await page.getByRole('button', { name: 'Enter Shipping Details' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Carrier Name').fill('India Post');
    await dialog.getByLabel('Tracking Number').fill('EE123456789IN');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await see(page, 'Shipping details recorded for the customer. The item can now be marked as received.');
    await see(page, 'Shipping details entered by an admin');
    await page.getByRole('button', { name: 'Mark as Received' }).first().click();
    await page.getByRole('dialog').getByRole('button', { name: 'Mark as Received' }).click();
    await see(page, 'Marked as received. The customer has been emailed.');
    expect((await server.api('GET', `/api/admin/exchange-requests/${id}`, adminToken)).body.transitStatus).toBe('received');
    await context.close();
  }, 90_000);
});
