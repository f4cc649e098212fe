import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, looksRightAndAccessible, PHONE, see, signedInPerson, startServerAndBrowser, stopServerAndBrowser } from '#tests/helpers/browser.ts';
import { submitRequestThroughApi, submitShippingThroughApi } from '#tests/helpers/requests.ts';
import type { RunningServer } from '#tests/helpers/server.ts';

/** A revised offer on the customer's request page (issue 24): both figures, the reason, Accept, and Decline's two ways. */
let server: RunningServer;
let browser: Browser;
let adminToken: string;
const EMAIL = 'meera.iyer@example.com';

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser());
  adminToken = await server.apiSignIn('admin@swappoints.demo');
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  expect((await server.api('POST', '/api/admin/valuation/entries', adminToken, { brand: 'HP', model: '88A', name: 'HP 88A Black Toner', baseValue: 1000 })).status).toBe(201);
  expect((await server.api('POST', '/api/admin/valuation/campaigns', adminToken, { name: 'HP week', kind: 'amount', value: 50, brand: 'HP', startsAt: day(-1), endsAt: day(1) })).status).toBe(201);
}, 120_000);
afterAll(() => stopServerAndBrowser({ server, browser }), 30_000);

/** A request quoted ₹850 + ₹50 bonus, received, and offered ₹400 + ₹50 bonus. */
async function offered(): Promise<{ id: string; token: string }> {
  const token = await server.apiSignIn(EMAIL);
  const id = await submitRequestThroughApi(server, token, { productName: 'HP 88A Toner Cartridge', brand: 'HP', condition: 'like_new', description: 'Half full.' });
  const warehouses = await server.api<{ id: string; isActive: boolean }[]>('GET', '/api/admin/warehouses', adminToken);
  expect((await server.api('PUT', `/api/admin/exchange-requests/${id}/status`, adminToken, { status: 'approved', warehouseId: warehouses.body.find((w) => w.isActive)!.id })).status).toBe(200);
  await submitShippingThroughApi(server, token, id);
  expect((await server.api('PUT', `/api/admin/exchange-requests/${id}/transit`, adminToken, { transitStatus: 'received' })).status).toBe(200);
  const credit = await server.api<{ offer: { status: string } }>('PUT', `/api/admin/exchange-requests/${id}/credit`, adminToken, { creditAmount: 400, reason: 'Cracked housing, toner low.' });
  expect(credit.body.offer.status).toBe('pending');
  return { id, token };
}

async function openOffer(viewport: typeof DESKTOP, id: string): Promise<Page> {
  const { page } = await signedInPerson(browser, server, EMAIL, viewport);
  await page.goto(`/exchange/${id}`);
  const card = page.getByTestId('offer-card');
  await see(card, 'Our offer for your item');
  await see(card.getByTestId('offer-quoted'), '₹900');
  await see(card.getByTestId('offer-amount'), '₹450');
  await see(card.getByTestId('offer-reason'), 'Cracked housing, toner low.');
  await see(card.getByTestId('offer-status'), 'With no answer by then, the offer is accepted and ₹450 is credited to your account.', { exact: false });
  return page;
}

describe.each([
  ['1280', DESKTOP],
  ['390', PHONE],
] as const)('the offer on the request page at %s px', (width, viewport) => {
  test('Accept gives the credit: the page says accepted and shows the credit', async () => {
    const { id, token } = await offered();
    const page = await openOffer(viewport, id);
    await looksRightAndAccessible(page, `customer-${width}-offer-pending`);
    await page.getByRole('button', { name: 'Accept ₹450' }).click();
    await see(page, 'Offer accepted: ₹450 store credit is on its way to your account.');
    await see(page.getByTestId('offer-status'), 'Accepted on', { exact: false });
    expect(await page.getByRole('button', { name: 'Accept ₹450' }).count()).toBe(0);
    const mine = await server.api<{ creditAmount: number; offer: { status: string } }>('GET', `/api/exchange/${id}`, token);
    expect([mine.body.creditAmount, mine.body.offer.status]).toEqual([450, 'accepted']);
    await page.context().close();
  }, 120_000);

  test('Decline, "Send it back to me": the address is asked for, then the request is closed and the return promised', async () => {
    const { id, token } = await offered();
    const page = await openOffer(viewport, id);
    await page.getByRole('button', { name: 'Decline' }).click();
    await page.getByRole('button', { name: 'Decline the offer' }).click();
    await see(page, 'Please choose what we should do with the item.');
    await page.getByLabel(/Send it back to me/).check();
    await page.getByRole('button', { name: 'Decline the offer' }).click();
    await see(page, 'Please fill in all required address fields.');
    expect(await page.getByLabel('Full name *').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByLabel('Full name *').fill('Meera Iyer');
    await page.getByLabel('Address line 1 *').fill('22 Residency Road');
    await page.getByLabel('City *').fill('Bengaluru');
    await page.getByLabel('State *').fill('Karnataka');
    await page.getByLabel('Postal code *').fill('560025');
    await page.getByLabel('Country *').fill('India');
    await looksRightAndAccessible(page, `customer-${width}-offer-decline-return`);
    await page.getByRole('button', { name: 'Decline the offer' }).click();
    await see(page, 'Offer declined: we will send the item back to you.');
    await see(page.getByTestId('offer-status'), 'Declined. The item will be sent back to the address given.');
    await see(page.getByTestId('admin-feedback'), 'You declined our offer of ₹450: we are sending the item back to you.');
    const mine = await server.api<{ status: string; offer: { choice: string; returnAddress: { city: string } } }>('GET', `/api/exchange/${id}`, token);
    expect([mine.body.status, mine.body.offer.choice, mine.body.offer.returnAddress.city]).toEqual(['declined', 'return', 'Bengaluru']);
    await page.context().close();
  }, 120_000);

  test('Decline, "Recycle it, no credit": the request is closed with no credit', async () => {
    const { id, token } = await offered();
    const page = await openOffer(viewport, id);
    await page.getByRole('button', { name: 'Decline' }).click();
    await page.getByLabel(/Recycle it, no credit/).check();
    expect(await page.getByLabel('Full name *').count()).toBe(0);
    await page.getByRole('button', { name: 'Decline the offer' }).click();
    await see(page, 'Offer declined: we will recycle the item.');
    await see(page.getByTestId('offer-status'), 'Declined. The item is recycled, with no credit.');
    const mine = await server.api<{ status: string; creditedAt: string | null }>('GET', `/api/exchange/${id}`, token);
    expect([mine.body.status, mine.body.creditedAt]).toEqual(['declined', null]);
    await page.context().close();
  }, 120_000);
});
