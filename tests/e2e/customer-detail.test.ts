import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, looksRightAndAccessible, PHONE, see, signedInPerson, startServerAndBrowser, stopServerAndBrowser } from '#tests/helpers/browser.ts';
import { submitRequestThroughApi } from '#tests/helpers/requests.ts';
import type { RunningServer } from '#tests/helpers/server.ts';
import { eventually, realImages } from './customer-helpers.ts';

/** The request page's other states (declined, a refused cancel) and the photo picker's limits. */
let server: RunningServer;
let browser: Browser;
let adminToken: string;
const EMAIL = 'kiran.patel@example.com';

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser());
  adminToken = await server.apiSignIn('admin@swappoints.demo');
}, 120_000);
afterAll(() => stopServerAndBrowser({ server, browser }), 30_000);

async function signedIn(viewport = DESKTOP): Promise<Page> {
  const { page } = await signedInPerson(browser, server, EMAIL, viewport);
  return page;
}

describe('the request page', () => {
  test("declined: the declined banner, the admin's feedback, no process stepper and no cancel", async () => {
    const token = await server.apiSignIn(EMAIL);
    const id = await submitRequestThroughApi(server, token, { productName: 'Drum Unit DR-2400', brand: 'Brother', description: 'Cracked housing.', condition: 'poor' });
    const declined = await server.api('PUT', `/api/admin/exchange-requests/${id}/status`, adminToken, { status: 'declined', adminFeedback: 'We cannot accept cracked drum units.' });
    expect(declined.status).toBe(200);

    const page = await signedIn(PHONE);
    await page.goto(`/exchange/${id}`);
    await see(page, 'Your exchange request has been declined. Please check the admin feedback.');
    await see(page, 'Declined');
    await see(page, 'Admin Feedback');
    await see(page, 'We cannot accept cracked drum units.');
    await see(page, 'Poor (significant wear)');
    expect(await page.getByText('Exchange Process').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Cancel Request' }).count()).toBe(0);
    await looksRightAndAccessible(page, 'customer-phone-request-declined');

    await page.goto('/dashboard');
    await see(page, 'Exchange request declined');
    await page.context().close();
  }, 120_000);

  test('a cancel the server refuses (approved meanwhile) closes the confirmation and says why', async () => {
    const token = await server.apiSignIn(EMAIL);
    const id = await submitRequestThroughApi(server, token, { productName: 'Maintenance Kit', brand: 'Lexmark', description: 'Unused spare.', condition: 'new' });
    const page = await signedIn();
    await page.goto(`/exchange/${id}`);
    await see(page, 'Your exchange request is currently under review.');

    const warehouses = await server.api<{ id: string; isActive: boolean }[]>('GET', '/api/admin/warehouses', adminToken);
    const approved = await server.api('PUT', `/api/admin/exchange-requests/${id}/status`, adminToken, { status: 'approved', warehouseId: warehouses.body.find((w) => w.isActive)!.id });
    expect(approved.status).toBe(200);
    const refusal = await server.api<{ error: string }>('DELETE', `/api/exchange/${id}`, token);
    expect(refusal.status).toBe(409);

    await page.getByRole('button', { name: 'Cancel Request' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, Cancel Request' }).click();
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });
    await see(page, refusal.body.error);
    expect(page.url()).toEndWith(`/exchange/${id}`);
    await looksRightAndAccessible(page, 'customer-desktop-cancel-refused');
    await page.context().close();
  }, 120_000);
});

describe('the photo picker', () => {
  test('photos upload as they are picked, with progress; the control is disabled while uploading and at 5; extra files are ignored', async () => {
    const page = await signedIn();
    await page.goto('/exchange/new');
    const images = await realImages(page, 'KIT');
    const input = page.locator('input[type="file"]');

    // hold the uploads to see them in progress
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/image/upload', async (route) => {
      await held;
      await route.continue();
    });
    await input.setInputFiles([
      { name: 'one.png', mimeType: 'image/png', buffer: images.png },
      { name: 'two.jpg', mimeType: 'image/jpeg', buffer: images.jpeg },
    ]);
    await see(page, '2/5 images');
    await page.getByRole('progressbar', { name: 'Uploading one.png' }).waitFor();
    await page.getByRole('progressbar', { name: 'Uploading two.jpg' }).waitFor();
    expect(await input.isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Submit Request' }).isDisabled()).toBe(true);
    await looksRightAndAccessible(page, 'customer-desktop-uploading');
    release();
    await page.getByText('Add Photos').waitFor();
    expect(await input.isDisabled()).toBe(false);
    await page.unroute('**/image/upload');

    // four more picked with three slots left: the fourth is ignored
    await input.setInputFiles(['three', 'four', 'five', 'six'].map((n) => ({ name: `${n}.png`, mimeType: 'image/png', buffer: images.png })));
    await see(page, '5/5 images');
    await page.getByText('Add Photos').waitFor();
    await eventually(() => page.getByTestId('picked-image').count(), 5);
    expect(await page.getByRole('img', { name: /six\.png/ }).count()).toBe(0);
    expect(await input.isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Remove image 5: five.png' }).click();
    await see(page, '4/5 images');
    expect(await input.isDisabled()).toBe(false);
    await page.context().close();
  }, 120_000);
});
