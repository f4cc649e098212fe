import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { DESKTOP, looksRightAndAccessible, PHONE, see, signedInPerson, startServerAndBrowser, stopServerAndBrowser } from '#tests/helpers/browser.ts';
import { submitRequestThroughApi, submitShippingThroughApi } from '#tests/helpers/requests.ts';
import type { RunningServer } from '#tests/helpers/server.ts';

/** Admin side of revised offers (issue 24): the queue's waiting filters, recording a return shipment, and booking one with the carrier. */
let server: RunningServer;
let browser: Browser;
let adminToken: string;
const ADMIN = 'admin@swappoints.demo';
const CUSTOMER = 'kiran.patel@example.com';

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser());
  adminToken = await server.apiSignIn(ADMIN);
  expect((await server.api('POST', '/api/admin/valuation/entries', adminToken, { brand: 'HP', model: '88A', name: 'HP 88A Black Toner', baseValue: 1000 })).status).toBe(201);
}, 120_000);
afterAll(() => stopServerAndBrowser({ server, browser }), 30_000);

/** A received HP 88A (quoted ₹850) offered ₹400; declined for a return when `decline` is set. */
async function offered(decline: boolean): Promise<string> {
  const token = await server.apiSignIn(CUSTOMER);
  const id = await submitRequestThroughApi(server, token, { productName: 'HP 88A Toner Cartridge', brand: 'HP', condition: 'like_new', description: 'Half full.' });
  const warehouses = await server.api<{ id: string; isActive: boolean }[]>('GET', '/api/admin/warehouses', adminToken);
  await server.api('PUT', `/api/admin/exchange-requests/${id}/status`, adminToken, { status: 'approved', warehouseId: warehouses.body.find((w) => w.isActive)!.id });
  await submitShippingThroughApi(server, token, id);
  await server.api('PUT', `/api/admin/exchange-requests/${id}/transit`, adminToken, { transitStatus: 'received' });
  expect((await server.api('PUT', `/api/admin/exchange-requests/${id}/credit`, adminToken, { creditAmount: 400, reason: 'Cracked housing' })).status).toBe(200);
  if (decline) {
    const address = { name: 'Kiran Patel', addressLine1: '5 Park Street', city: 'Kolkata', state: 'West Bengal', postalCode: '700016', country: 'India' };
    expect((await server.api('POST', `/api/exchange/${id}/offer/decline`, token, { choice: 'return', address })).status).toBe(200);
  }
  return id;
}

describe.each([
  ['1280', DESKTOP],
  ['390', PHONE],
] as const)('offers in the admin queue at %s px', (width, viewport) => {
  test('Offers waiting and Returns to ship list their requests with a count; the return is recorded on the request page', async () => {
    const waitingId = await offered(false);
    const returnId = await offered(true);
    const { page, context } = await signedInPerson(browser, server, ADMIN, viewport);
    await page.goto('/admin');
    const counts = await server.api<{ offersWaiting: number; returnsToShip: number }>('GET', '/api/admin/exchange-requests/waiting-counts', adminToken);
    await see(page.getByTestId('waiting-offers'), `Offers waiting (${counts.body.offersWaiting})`);
    await see(page.getByTestId('waiting-returns'), `Returns to ship (${counts.body.returnsToShip})`);
    await page.getByTestId('waiting-offers').click();
    await page.waitForURL(/waiting=offers/);
    await see(page.getByRole('heading', { name: 'Offers waiting' }), 'Offers waiting');
    expect(await page.locator(`a[href="/admin/exchange/${waitingId}"]`).count()).toBeGreaterThan(0);
    expect(await page.locator(`a[href="/admin/exchange/${returnId}"]`).count()).toBe(0);

    await page.getByTestId('waiting-returns').click();
    await page.waitForURL(/waiting=returns/);
    expect(await page.locator(`a[href="/admin/exchange/${returnId}"]`).count()).toBeGreaterThan(0);
    await looksRightAndAccessible(page, `admin-${width}-returns-to-ship`);

    await page.goto(`/admin/exchange/${returnId}`);
    const card = page.getByTestId('admin-offer-card');
    await see(card, 'Return to ship');
    await see(card.getByTestId('return-address'), '5 Park Street', { exact: false });
    await card.getByRole('button', { name: 'Record return shipment' }).click();
    await see(card, 'Send the carrier name and tracking number of the return shipment.');
    await card.getByLabel('Carrier Name').fill('India Post');
    await card.getByLabel('Tracking Number').fill('EE123456789IN');
    await looksRightAndAccessible(page, `admin-${width}-return-form`);
    await card.getByRole('button', { name: 'Record return shipment' }).click();
    await see(page, 'Return recorded. The customer has been emailed the tracking number.');
    await see(page.getByTestId('return-shipment'), 'Sent back with India Post, tracking EE123456789IN', { exact: false });
    await context.close();
  }, 120_000);
});

describe('a return booked with the carrier (the embedded one)', () => {
  test('the admin books it and downloads its label; the customer sees the carrier, the AWB and the latest step', async () => {
    const id = await offered(true);
    const admin = await signedInPerson(browser, server, ADMIN, DESKTOP);
    await admin.page.goto(`/admin/exchange/${id}`);
    const card = admin.page.getByTestId('admin-offer-card');
    await see(card, 'Return to ship');
    // the manual form stays as the fallback
    await card.getByLabel('Carrier Name').waitFor();
    await card.getByRole('button', { name: 'Book the return' }).click();
    await see(admin.page, 'The customer has been emailed the tracking number.', { exact: false });
    const parcel = admin.page.getByTestId('return-parcel-card');
    await see(parcel.getByTestId('return-parcel-status'), 'Waiting for the courier to collect it');
    const awb = (await parcel.getByTestId('return-parcel-awb').innerText()).trim();
    expect(awb).toMatch(/^SWP\d{10}$/);
    await see(admin.page.getByTestId('return-shipment'), `Sent back with SwapPoints Parcels, tracking ${awb}`, { exact: false });
    expect(await card.getByRole('button', { name: 'Book the return' }).count()).toBe(0);
    const label = await admin.page.request.get((await parcel.getByRole('link', { name: 'Download return label (PDF)' }).getAttribute('href'))!);
    expect([label.status(), label.headers()['content-type']]).toEqual([200, 'application/pdf']);
    await looksRightAndAccessible(admin.page, 'admin-1280-return-booked');
    await admin.context.close();

    expect((await server.cli('shipments', 'event', awb, 'picked_up', '--location', 'Bengaluru')).code).toBe(0);
    const customer = await signedInPerson(browser, server, CUSTOMER, PHONE);
    await customer.page.goto(`/exchange/${id}`);
    const mine = customer.page.getByTestId('return-parcel-card');
    await see(mine.getByTestId('return-parcel-carrier'), 'SwapPoints Parcels');
    await see(mine.getByTestId('return-parcel-awb'), awb);
    await see(mine.getByTestId('return-parcel-status'), 'Collected from the warehouse');
    await see(customer.page.getByTestId('offer-status'), `Declined. Sent back with SwapPoints Parcels, tracking number ${awb}.`);
    expect(await mine.getByRole('link', { name: 'Download return label (PDF)' }).count()).toBe(0);
    await looksRightAndAccessible(customer.page, 'customer-390-return-on-its-way');
    await customer.context.close();
  }, 120_000);
});
