import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, see, startServerAndBrowser, stopServerAndBrowser } from '#tests/helpers/browser.ts';
import { submitRequestThroughApi, submitShippingThroughApi } from '#tests/helpers/requests.ts';
import type { RunningServer } from '#tests/helpers/server.ts';
import { signedInOnce, tabCount } from './admin-helpers.ts';
import { shotAndAxe, WIDTHS } from './journey-helpers.ts';

/** The admin's queue and request page at 1280 and 390 px: whole-queue badges, order, phone cards, decision first, feedback after each action. */
let server: RunningServer;
let browser: Browser;
let adminToken: string;
let customerToken: string;
let warehouseId: string;
const ADMIN = 'admin@swappoints.demo';
const CUSTOMER = 'vikram.singh@example.com';

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser());
  [adminToken, customerToken] = await Promise.all([server.apiSignIn(ADMIN), server.apiSignIn(CUSTOMER)]);
  const warehouses = await server.api<{ id: string; isActive: boolean }[]>('GET', '/api/admin/warehouses', adminToken);
  warehouseId = warehouses.body.find((w) => w.isActive)!.id;
  // three pending requests, oldest first: Zebra, Alpha, Mango
  for (const name of ['Zebra Toner', 'Alpha Drum', 'Mango Fuser']) {
    await submitRequestThroughApi(server, customerToken, { productName: `Queue ${name}`, brand: 'Queuebrand', description: 'For the queue.', condition: 'good' });
  }
}, 120_000);
afterAll(() => stopServerAndBrowser({ server, browser }), 30_000);

/** The admin of every test here, signed in once, at the width a test asks for. */
const signedIn = signedInOnce(() => ({ browser, server }));
const adminAt = (viewport: { width: number; height: number }) => signedIn(ADMIN, viewport);

const productsShown = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluateAll((els) => els.map((el) => (el.textContent ?? '').match(/Queue (Zebra Toner|Alpha Drum|Mango Fuser)/)?.[0] ?? ''));

describe('the admin queue', () => {
  test('desktop: the badges count the whole queue while searching; pending is oldest first with an Age column; headers sort', async () => {
    const page = await adminAt(DESKTOP);
    await page.goto('/admin');
    const whole = await tabCount(page, 0);
    expect(whole).toBe(3);
    await page.goto('/admin?q=zebra');
    expect(await page.getByTestId('admin-request-row').count()).toBe(1);
    await see(page, 'Showing 1-1 of 1 request');
    expect(await tabCount(page, 0)).toBe(3);

    await page.goto('/admin?q=queue');
    expect(await productsShown(page, 'admin-request-row')).toEqual(['Queue Zebra Toner', 'Queue Alpha Drum', 'Queue Mango Fuser']);
    expect(await page.getByRole('columnheader', { name: 'Date' }).getAttribute('aria-sort')).toBe('ascending');
    for (const age of await page.getByTestId('request-age').allTextContents()) expect(age).toMatch(/^\d+ minutes?$/);
    await shotAndAxe(page, 'admin-queue-desktop');

    await page.getByRole('columnheader', { name: 'Product' }).getByRole('link').click();
    await page.waitForURL(/sort=product&order=asc/);
    await page.waitForFunction(() => document.querySelector('th[aria-sort="ascending"]')?.textContent === 'Product');
    expect(await productsShown(page, 'admin-request-row')).toEqual(['Queue Alpha Drum', 'Queue Mango Fuser', 'Queue Zebra Toner']);
    await page.getByRole('columnheader', { name: 'Product' }).getByRole('link').click();
    await page.waitForURL(/sort=product&order=desc/);
    await page.waitForFunction(() => document.querySelector('th[aria-sort="descending"]')?.textContent === 'Product');
    expect(await productsShown(page, 'admin-request-row')).toEqual(['Queue Zebra Toner', 'Queue Mango Fuser', 'Queue Alpha Drum']);
    // the search keeps the order
    expect(new URL(page.url()).searchParams.get('q')).toBe('queue');
  });

  test('phone: compact cards with View in sight, the tab strip whole, nothing wider than the screen; the drawer has Admin Panel and Receive', async () => {
    const phone = WIDTHS[1][1];
    const page = await adminAt(phone);
    await page.goto('/admin?q=queue');
    const cards = page.getByTestId('admin-request-card');
    await cards.first().waitFor();
    expect(await cards.count()).toBe(3);
    expect(await page.getByTestId('admin-request-row').first().isVisible()).toBe(false);
    for (let i = 0; i < 3; i++) {
      const view = await cards.nth(i).getByRole('link', { name: /^View / }).boundingBox();
      expect(view!.x).toBeGreaterThanOrEqual(0);
      expect(view!.x + view!.width).toBeLessThanOrEqual(phone.width);
    }
    for (const link of await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link').all()) {
      const box = await link.boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(phone.width);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await shotAndAxe(page, 'admin-queue-phone');

    await cards.first().getByRole('link', { name: /^View / }).click();
    await page.waitForURL('**/admin/exchange/**');
    // a pending request: inspect first (details and photos), then decide
    const review = await page.getByRole('heading', { name: 'Review Request' }).boundingBox();
    const details = await page.getByRole('heading', { name: 'Request Details' }).boundingBox();
    const images = await page.getByRole('heading', { name: 'Images' }).boundingBox();
    expect(details!.y).toBeLessThan(review!.y);
    expect(images!.y).toBeLessThan(review!.y);
    await shotAndAxe(page, 'admin-detail-phone');

    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog');
    expect(await drawer.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents()).toEqual(['Dashboard', 'My Exchanges', 'New Exchange', 'Admin Panel', 'Receive']);
  });
});

describe('the admin request page', () => {
  for (const [name, viewport] of WIDTHS) {
    test(`${name}: decline needs feedback, disabled buttons say why, More holds Delete, the credit is confirmed first, every action confirms`, async () => {
      const page = await adminAt(viewport);
      const declineId = await submitRequestThroughApi(server, customerToken, { productName: `Decline me ${name}`, brand: 'HP', description: 'x', condition: 'poor' });
      await page.goto(`/admin/exchange/${declineId}`);
      await see(page, "Customer's store credit balance");
      expect(await page.getByText('Total Loyalty Points').count()).toBe(0);
      await see(page.getByTestId('disabled-reason'), 'Choose Approve or Decline to submit a decision.');
      await page.getByRole('radio', { name: 'Decline' }).click();
      expect(await page.getByTestId('disabled-reason').count()).toBe(0);
      await page.getByRole('button', { name: 'Submit Decision' }).click();
      await see(page, 'Please tell the customer why the request is declined (Admin Feedback).');
      await page.waitForFunction(() => document.activeElement?.tagName === 'TEXTAREA');
      await shotAndAxe(page, `admin-decline-needs-feedback-${name}`);
      await page.getByLabel('Admin Feedback').fill('We only take printer parts.');
      await page.getByRole('button', { name: 'Submit Decision' }).click();
      await see(page.getByTestId('flash'), 'Request declined. The customer has been emailed your feedback.');
      await see(page, 'Feedback sent to the customer: We only take printer parts.');
      expect(await page.getByTestId('exchange-stepper').count()).toBe(0);

      // More → Delete, with its confirmation and a confirmation after
      await page.getByRole('button', { name: 'More' }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
      await page.waitForURL(/\/admin(\?.*)?$/);
      await see(page.getByTestId('flash'), `Request "Decline me ${name}" deleted.`);

      // approve → received → credit (confirmed, rounded) → complete, each with its confirmation
      const id = await submitRequestThroughApi(server, customerToken, { productName: `Trade me ${name}`, brand: 'Canon', description: 'y', condition: 'good' });
      await page.goto(`/admin/exchange/${id}`);
      await page.getByRole('radio', { name: 'Approve' }).click();
      await page.getByLabel('Warehouse').selectOption(warehouseId);
      await page.getByRole('button', { name: 'Submit Decision' }).click();
      await see(page.getByTestId('flash'), 'Request approved. The customer has been emailed the address to ship to.');
      await see(page, 'Waiting for the customer to add the shipping details.');
      await see(page, 'Mark the item as received first.');
      await see(page.getByTestId('exchange-stepper'), 'Waiting for the customer');
      await shotAndAxe(page, `admin-approved-${name}`);

      await submitShippingThroughApi(server, customerToken, id);
      await page.reload();
      await page.getByRole('button', { name: 'Mark as Received' }).click();
      await page.getByRole('dialog', { name: 'Mark as Received' }).getByRole('button', { name: 'Mark as Received' }).click();
      await see(page.getByTestId('flash'), 'Marked as received. The customer has been emailed.');

      await page.getByRole('button', { name: 'Assign Loyalty Points' }).click();
      const credit = page.getByRole('dialog', { name: 'Assign Loyalty Points' });
      await credit.getByLabel(/^Credit Amount/).fill('249.6');
      await credit.getByRole('button', { name: 'Assign Loyalty Points' }).click();
      await see(credit.getByTestId('credit-confirmation'), 'Give ₹250.00 store credit to Vikram Singh (vikram.singh@example.com)?', { exact: false });
      await see(credit.getByTestId('credit-confirmation'), '(249.6 rounded to a whole number.)', { exact: false });
      await shotAndAxe(page, `admin-credit-confirm-${name}`);
      await credit.getByRole('button', { name: 'Give ₹250.00' }).click();
      await see(page.getByTestId('flash'), '₹250.00 store credit assigned to Vikram Singh (vikram.singh@example.com).');
      await page.getByTestId('assigned-points').filter({ hasText: '₹250.00' }).waitFor();

      await page.getByRole('button', { name: 'Complete Exchange' }).click();
      await page.getByRole('dialog', { name: 'Complete Exchange' }).getByRole('button', { name: 'Complete Exchange' }).click();
      await see(page.getByTestId('flash'), 'Exchange completed. The customer has been emailed.');
      await see(page, 'Exchange Completed Successfully');
      }, 180_000);
  }
});
