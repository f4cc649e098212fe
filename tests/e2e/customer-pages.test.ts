import { beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { DESKTOP, looksRightAndAccessible, PHONE, see, signedInPerson, useServerAndBrowser } from '#tests/helpers/browser.ts';
import { submitRequestThroughApi } from '#tests/helpers/requests.ts';
import { eventually, realImages } from './customer-helpers.ts';

/**
 * A customer's pages beyond the journey, on one server and one browser with the default settings:
 * a cancelled request found under its filter (issue 26, point 8), download my data and delete my
 * account (issue 25, points 1 and 2), the request page's other states and the photo picker's
 * limits. Each part has customers of its own, so none sees another's requests.
 */
let adminToken: string;
const CANCELLING_EMAIL = 'meera.iyer@example.com';
let cancelId: string;
const PRIVACY_EMAIL = 'priya.nair@example.com';
const DETAIL_EMAIL = 'kiran.patel@example.com';

const app = useServerAndBrowser();
beforeAll(async () => {
  adminToken = await app.server.apiSignIn('admin@swappoints.demo');
  const cancelling = await app.server.apiSignIn(CANCELLING_EMAIL);
  await submitRequestThroughApi(app.server, cancelling, { productName: 'Kept Fuser Unit', brand: 'Canon', description: 'Works, lightly used.', condition: 'good' });
  cancelId = await submitRequestThroughApi(app.server, cancelling, { productName: 'Spare Drum Kit', brand: 'Brother', description: 'Bought by mistake.', condition: 'new' });
  expect((await app.server.cli('customers', 'add', PRIVACY_EMAIL, '--name', 'Priya Nair')).code).toBe(0);
  const privacy = await app.server.apiSignIn(PRIVACY_EMAIL);
  await submitRequestThroughApi(app.server, privacy, { productName: 'Spare Maintenance Kit', brand: 'Kyocera', description: 'Never fitted.', condition: 'new' });
}, 180_000);

describe('cancelled requests', () => {
  test('cancel through the page, then follow Show cancelled requests beside the filter with the keyboard: the request is listed with its date (1280 px)', async () => {
    const { context, page } = await signedInPerson(app.browser, app.server, CANCELLING_EMAIL, DESKTOP, `/exchange/${cancelId}`);
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
    const token = await app.server.apiSignIn(phoneEmail);
    const id = await submitRequestThroughApi(app.server, token, { productName: 'Spare Toner Cartridge', brand: 'HP', description: 'Ordered twice.', condition: 'new' });
    expect((await app.server.api('DELETE', `/api/exchange/${id}`, token)).status).toBe(200);
    const { context, page } = await signedInPerson(app.browser, app.server, phoneEmail, PHONE, '/exchange?status=cancelled');
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

describe('your data on the dashboard', () => {
  test('at 390 px: Download my data gives the ZIP of my requests; Delete my account asks first, then signs me out for good', async () => {
    const { context, page } = await signedInPerson(app.browser, app.server, PRIVACY_EMAIL, PHONE); // lands on /dashboard
    await see(page, 'Your data');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await looksRightAndAccessible(page, 'customer-phone-your-data');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download my data' }).click()]);
    expect(download.suggestedFilename()).toBe('swappoints-my-data.zip');
    const data = JSON.parse(strFromU8(unzipSync(new Uint8Array(readFileSync((await download.path())!)))['swappoints-data.json']!));
    expect(data.email).toBe(PRIVACY_EMAIL);
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

    const users = await app.server.cli('privacy', 'erase', PRIVACY_EMAIL, '--json');
    expect(users.code).toBe(2);
    expect(users.stderr).toContain(`No customer with the email ${PRIVACY_EMAIL} is held here`);
  }, 120_000);
});

async function signedIn(viewport = DESKTOP): Promise<Page> {
  const { page } = await signedInPerson(app.browser, app.server, DETAIL_EMAIL, viewport);
  return page;
}

describe('the request page', () => {
  test("declined: the declined banner, the admin's feedback, no process stepper and no cancel", async () => {
    const token = await app.server.apiSignIn(DETAIL_EMAIL);
    const id = await submitRequestThroughApi(app.server, token, { productName: 'Drum Unit DR-2400', brand: 'Brother', description: 'Cracked housing.', condition: 'poor' });
    const declined = await app.server.api('PUT', `/api/admin/exchange-requests/${id}/status`, adminToken, { status: 'declined', adminFeedback: 'We cannot accept cracked drum units.' });
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
    const token = await app.server.apiSignIn(DETAIL_EMAIL);
    const id = await submitRequestThroughApi(app.server, token, { productName: 'Maintenance Kit', brand: 'Lexmark', description: 'Unused spare.', condition: 'new' });
    const page = await signedIn();
    await page.goto(`/exchange/${id}`);
    await see(page, 'Your exchange request is currently under review.');

    const warehouses = await app.server.api<{ id: string; isActive: boolean }[]>('GET', '/api/admin/warehouses', adminToken);
    const approved = await app.server.api('PUT', `/api/admin/exchange-requests/${id}/status`, adminToken, { status: 'approved', warehouseId: warehouses.body.find((w) => w.isActive)!.id });
    expect(approved.status).toBe(200);
    const refusal = await app.server.api<{ error: string }>('DELETE', `/api/exchange/${id}`, token);
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
