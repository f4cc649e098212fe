import { beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { see, signedInPerson, useServerAndBrowser } from '#tests/helpers/browser.ts';
import { png } from '#tests/helpers/images.ts';
import { submitRequestThroughApi } from '#tests/helpers/requests.ts';
import { currentStep, currentStepNote, eventually } from './customer-helpers.ts';
import { shotAndAxe, WIDTHS } from './journey-helpers.ts';

/**
 * A customer's request from the form to the credit, at 1280 and 390 px: the banner and next step of
 * every state, the stepper, the confirmations, the form's messages, shop-time dates and plurals.
 */
let adminToken: string;
let warehouseId: string;

const app = useServerAndBrowser();
beforeAll(async () => {
  adminToken = await app.server.apiSignIn('admin@swappoints.demo');
  const warehouses = await app.server.api<{ id: string; isActive: boolean }[]>('GET', '/api/admin/warehouses', adminToken);
  warehouseId = warehouses.body.find((w) => w.isActive)!.id;
}, 120_000);

const admin = (method: string, path: string, body?: unknown) => app.server.api(method, `/api/admin/exchange-requests${path}`, adminToken, body);
const photo = (i: number) => ({ name: `photo-${i}.png`, mimeType: 'image/png', buffer: Buffer.from(png(20 + i, 16)) });

async function banner(page: Page, state: string, title: string, next: string): Promise<void> {
  const box = page.locator(`[data-testid="next-step"][data-state="${state}"]`);
  await box.waitFor({ timeout: 15_000 });
  await see(box, title);
  await see(box, next, { exact: false });
}

async function flashed(page: Page, message: string): Promise<void> {
  await see(page.getByTestId('flash'), message);
}

const CUSTOMERS = { desktop: 'asha.rao@example.com', phone: 'meera.iyer@example.com' } as const;

describe('customer journeys', () => {
  for (const [name, viewport] of WIDTHS) {
    test(`${name}: the form, then every state's banner, next step and stepper, with a confirmation after each action`, async () => {
      const email = CUSTOMERS[name];
      const { context, page } = await signedInPerson(app.browser, app.server, email, viewport);

      // ---- the form: every gap at once, the first focused; messages clear as they are fixed; a sixth photo is refused
      await page.goto('/exchange/new');
      await page.getByRole('button', { name: 'Submit Request' }).click();
      await see(page, 'Please fill in all required fields');
      await see(page, 'Please upload at least one image of the product');
      await page.waitForFunction(() => document.activeElement?.id === 'productName');
      for (const label of ['Product Name', 'Brand', 'Condition', 'Description']) expect(await page.getByLabel(label).getAttribute('aria-invalid')).toBe('true');
      await page.getByLabel('Product Name').fill('HP 26A Toner');
      await page.getByRole('button', { name: 'Submit Request' }).click();
      await page.waitForFunction(() => document.activeElement?.id === 'brand');
      await page.getByLabel('Brand').fill('HP');
      await page.getByLabel('Condition').selectOption({ label: 'Good (some signs of wear)' });
      await page.getByLabel('Description').fill('Half used, sealed in its bag.');
      expect(await page.getByText('Please fill in all required fields').count()).toBe(0);
      await see(page, 'Please upload at least one image of the product');
      await shotAndAxe(page, `customer-form-errors-${name}`);
      await page.locator('input[type="file"]').setInputFiles([1, 2, 3, 4, 5, 6].map(photo));
      await see(page, 'At most 5 images are allowed: 1 photo was not added.');
      await see(page, '5/5 images');
      expect(await page.getByText('Please upload at least one image of the product').count()).toBe(0);
      await page.getByText('Add Photos').waitFor();
      await page.getByRole('button', { name: 'Submit Request' }).click();
      await page.waitForURL(/\/exchange\/[0-9a-f-]{36}$/);
      const id = page.url().split('/').pop()!;
      await flashed(page, 'Request submitted. We will review it and email you the decision.');

      // ---- pending
      await banner(page, 'pending', 'Your exchange request is currently under review.', 'Next: our team reviews it');
      // the timeline speaks the shop's time (Asia/Kolkata by default), like the rest of the page
      await see(page.getByTestId('event-timeline'), 'IST', { exact: false });
      expect(await page.getByTestId('event-timeline').textContent()).not.toContain('UTC');
      await shotAndAxe(page, `customer-pending-${name}`);

      // ---- approved: ship it, then add the details
      expect((await admin('PUT', `/${id}/status`, { status: 'approved', warehouseId, adminFeedback: 'Please ship it.' })).status).toBe(200);
      await page.reload();
      await banner(page, 'awaiting-shipping', 'Your Exchange Request is Approved! Now add the shipping details.', 'ship it to the address below');
      expect(await currentStep(page)).toBe('Shipping');
      expect(await currentStepNote(page)).toBe('Waiting for you');
      expect(await page.getByTestId('exchange-stepper').locator('[data-state="completed"]').count()).toBe(1);
      await shotAndAxe(page, `customer-approved-${name}`);

      await page.getByRole('button', { name: 'Add Details' }).click();
      const dialog = page.getByRole('dialog', { name: 'Submit Shipping Details' });
      await see(dialog, 'Common here: Delhivery, Blue Dart, DTDC, India Post', { exact: false });
      expect(await dialog.locator('datalist#carrier-suggestions option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toContain('Delhivery');
      const max = await dialog.getByLabel('Shipping Date').getAttribute('max');
      expect(max).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      const tomorrow = new Date(Date.parse(`${max}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      await dialog.getByLabel('Carrier Name').fill('Delhivery');
      await dialog.getByLabel('Tracking Number').fill('DLV0001');
      await dialog.getByLabel('Shipping Date').fill(tomorrow);
      await dialog.getByRole('button', { name: 'Submit', exact: true }).click();
      await see(dialog, 'The shipping date cannot be in the future.');
      await dialog.getByLabel('Shipping Date').fill(max!);
      await dialog.getByRole('button', { name: 'Submit', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await flashed(page, 'Shipping details saved. We will tell you when your item arrives at the warehouse.');

      // ---- in transit: correctable until received
      await banner(page, 'in-transit', 'Item has been shipped to us', 'we will tell you when it arrives');
      expect(await currentStepNote(page)).toBe('Waiting for the item to arrive');
      await page.getByRole('button', { name: 'Correct Shipping Details' }).click();
      expect(await dialog.getByLabel('Tracking Number').inputValue()).toBe('DLV0001');
      await dialog.getByLabel('Tracking Number').fill('DLV0002');
      await dialog.getByRole('button', { name: 'Submit', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await flashed(page, 'Shipping details corrected. You can change them again until the item is received.');
      await see(page, 'DLV0002');
      await see(page.getByTestId('event-timeline'), 'Shipping details corrected');
      await shotAndAxe(page, `customer-in-transit-${name}`);

      // ---- received
      expect((await admin('PUT', `/${id}/transit`, { transitStatus: 'received' })).status).toBe(200);
      await page.reload();
      await banner(page, 'received', 'Item received and under inspection', 'Credit usually follows within 3 days');
      expect(await page.getByRole('button', { name: 'Correct Shipping Details' }).count()).toBe(0);
      expect(await currentStep(page)).toBe('Inspection & Valuation');
      expect(await currentStepNote(page)).toBe('Waiting for our team');
      await shotAndAxe(page, `customer-received-${name}`);

      // ---- credited: this item's credit and the balance, labelled apart
      expect((await admin('PUT', `/${id}/credit`, { creditAmount: 300 })).status).toBe(200);
      await eventually(async () => {
        await page.reload();
        return page.getByText('It is in your store credit balance.', { exact: false }).count();
      }, 1);
      await banner(page, 'credited', '₹300.00 credit assigned for this item.', 'We will complete the exchange next.');
      await see(page, 'Credit for this item');
      await see(page, 'Your store credit balance');
      expect(await page.getByTestId('credit-amount-value').allTextContents()).toEqual(['₹300.00', '₹300.00']);
      expect(await currentStep(page)).toBe('Exchange Complete');
      await shotAndAxe(page, `customer-credited-${name}`);

      // ---- completed: every step ticked, never 'under inspection', and a way to spend it
      expect((await admin('PUT', `/${id}/status`, { status: 'completed' })).status).toBe(200);
      await page.reload();
      await banner(page, 'completed', 'Exchange process completed', '₹300.00 added to your store credit.');
      expect(await page.getByTestId('next-step').getByRole('link', { name: 'Shop now' }).getAttribute('href')).toBe('https://shop.example.com');
      expect(await currentStep(page)).toBe('');
      expect(await page.getByTestId('exchange-stepper').locator('[data-state="completed"]').count()).toBe(5);
      expect(await page.getByTestId('exchange-stepper').textContent()).not.toContain('under inspection');
      await shotAndAxe(page, `customer-completed-${name}`);

      // ---- declined: the admin's reason and what the customer can do; no stepper
      const token = await app.server.apiSignIn(email);
      const declinedId = await submitRequestThroughApi(app.server, token, { productName: 'Cracked Drum', brand: 'Brother', description: 'Cracked.', condition: 'poor' });
      expect((await admin('PUT', `/${declinedId}/status`, { status: 'declined', adminFeedback: 'We cannot resell cracked drums.' })).status).toBe(200);
      await page.goto(`/exchange/${declinedId}`);
      await banner(page, 'declined', 'Your exchange request has been declined. Please check the admin feedback.', 'Reason: We cannot resell cracked drums.');
      await see(page.getByTestId('next-step'), 'You can trade in another item with a new request', { exact: false });
      expect(await page.getByTestId('next-step').getByRole('link', { name: 'New Exchange' }).getAttribute('href')).toBe('/exchange/new');
      expect(await page.getByTestId('next-step').getByRole('link', { name: 'Contact Support' }).getAttribute('href')).toStartWith('mailto:support@swappoints.local');
      expect(await page.getByTestId('exchange-stepper').count()).toBe(0);
      await shotAndAxe(page, `customer-declined-${name}`);

      // ---- cancelled: confirmed, and back on the dashboard
      const cancelId = await submitRequestThroughApi(app.server, token, { productName: 'Spare Fuser', brand: 'Canon', description: 'Unused.', condition: 'new' });
      await page.goto(`/exchange/${cancelId}`);
      await page.getByRole('button', { name: 'Cancel Request' }).click();
      await page.getByRole('button', { name: 'Yes, Cancel Request' }).click();
      await page.waitForURL('**/dashboard');
      await flashed(page, 'Your exchange request was cancelled. You can submit a new one any time.');
      await shotAndAxe(page, `customer-cancelled-${name}`);

      // ---- the count chip follows the search; 'of 1 request' in the singular
      await see(page.getByTestId('request-count'), '2 Requests');
      await page.getByRole('searchbox', { name: 'Search exchanges' }).fill('drum');
      await see(page.getByTestId('request-count'), '1 Request');
      await page.getByRole('searchbox', { name: 'Search exchanges' }).fill('nothing like this');
      await see(page.getByTestId('request-count'), '0 Requests');
      await page.goto('/exchange?status=declined');
      await see(page, 'Showing 1-1 of 1 request');
      await page.goto('/exchange');
      await see(page, 'Showing 1-2 of 2 requests');
      await context.close();
    }, 240_000);
  }

  test("phone: the drawer reaches Dashboard, My Exchanges and New Exchange (no Admin Panel for a customer)", async () => {
    const { context, page } = await signedInPerson(app.browser, app.server, 'zoe.dsouza@example.com', WIDTHS[1][1]);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog');
    await drawer.waitFor();
    expect(await drawer.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents()).toEqual(['Dashboard', 'My Exchanges', 'New Exchange']);
    await shotAndAxe(page, 'customer-drawer-phone');
    await drawer.getByRole('link', { name: 'My Exchanges' }).click();
    await page.waitForURL('**/exchange');
    await see(page, 'My Exchange Requests');
    await drawer.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog').getByRole('link', { name: 'New Exchange' }).click();
    await page.waitForURL('**/exchange/new');
    await context.close();
  });
});
