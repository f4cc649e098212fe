import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { en } from '#src/i18n/en.ts';
import { hi } from '#src/i18n/hi.ts';
import { formatDate } from '#src/lib/requests.ts';
import { hydrated, looksRightAndAccessible, PHONE, see, startServerAndBrowser, stopServerAndBrowser } from '#tests/helpers/browser.ts';
import { submitRequestThroughApi, submitShippingThroughApi } from '#tests/helpers/requests.ts';
import type { RunningServer } from '#tests/helpers/server.ts';
import { ADMIN_EMAIL } from './admin-helpers.ts';

/** Issue 29, point 2: a customer whose phone asks for Hindi reads the pages in Hindi, and can switch to English for good. */
let server: RunningServer;
let browser: Browser;
const EMAIL = `priya.${process.pid}@example.com`;

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser());
  expect((await server.cli('customers', 'add', EMAIL)).code).toBe(0);
}, 180_000);
afterAll(async () => {
  await stopServerAndBrowser({ server, browser });
}, 30_000);

const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);
const open = async (page: Page, path: string) => {
  await page.goto(path);
  await hydrated(page);
};

describe('the customer pages in Hindi', () => {
  test('at 390 px with Accept-Language hi: sign-in, dashboard, list and new request form in Hindi, ₹ and dates for hi-IN; the header switch to English sticks on the profile', async () => {
    const context = await browser.newContext({ baseURL: server.url, viewport: PHONE, locale: 'hi-IN' });
    const page = await context.newPage();

    await open(page, '/email-signin');
    expect(await htmlLang(page)).toBe('hi');
    await see(page, hi['signIn.title']);
    await see(page, hi['signIn.who']);
    await page.getByLabel(hi['signIn.emailLabel']).fill(EMAIL);
    await page.getByRole('button', { name: hi['signIn.continue'] }).click();
    await see(page, hi['signIn.sent'].replace('{email}', EMAIL));
    await page.goto(await server.signInLink(EMAIL));
    await page.waitForURL(/\/dashboard$/);
    await hydrated(page);
    expect(await htmlLang(page)).toBe('hi');
    await see(page, hi['dashboard.title']);
    await see(page, hi['dashboard.empty']);

    // a credited request, through the API as the shop's admin would
    const token = await server.apiSignIn(EMAIL);
    const id = await submitRequestThroughApi(server, token, { productName: 'Laser Toner 12A', brand: 'HP', description: 'Half full.', condition: 'good' });
    const adminToken = await server.apiSignIn(ADMIN_EMAIL);
    const warehouses = await server.api<{ id: string; isActive: boolean }[]>('GET', '/api/admin/warehouses?pageSize=100', adminToken);
    const warehouseId = warehouses.body.find((w) => w.isActive)!.id;
    expect((await server.api('PUT', `/api/admin/exchange-requests/${id}/status`, adminToken, { status: 'approved', warehouseId })).status).toBe(200);
    await submitShippingThroughApi(server, token, id);
    expect((await server.api('PUT', `/api/admin/exchange-requests/${id}/transit`, adminToken, { transitStatus: 'received' })).status).toBe(200);
    expect((await server.api('PUT', `/api/admin/exchange-requests/${id}/credit`, adminToken, { creditAmount: 125000 })).status).toBe(200);

    await open(page, '/dashboard');
    await see(page, hi['credit.cardTitle']);
    expect(await page.getByTestId('credit-amount').innerText()).toBe('₹1,25,000.00');
    const item = page.getByTestId('recent-exchange');
    await see(item, hi['credit.inline'].replace('{amount}', '₹1,25,000.00'));
    await see(item, hi['status.approved']);
    await see(item, hi['line.creditAssigned']);
    await see(page, '1 रिक्वेस्ट');
    const time = item.locator('time');
    const shown = await time.innerText();
    expect(shown).toBe(formatDate((await time.getAttribute('datetime'))!, 'hi-IN', 'Asia/Kolkata'));
    expect(shown).toMatch(/[\u0900-\u097F]/); // the month in Hindi
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await looksRightAndAccessible(page, 'customer-phone-dashboard-hindi');

    // the list and the new request form speak Hindi too
    await open(page, '/exchange');
    await see(page, hi['list.title']);
    await see(page, '1 में से 1-1 रिक्वेस्ट');
    const card = page.getByTestId('exchange-card');
    await see(card, 'क्रेडिट: ₹1,25,000.00');
    await see(card, hi['condition.good.short']);
    await see(card, hi['transit.received']);
    expect(await page.getByLabel(hi['list.filter']).locator('option').allInnerTexts()).toEqual([hi['list.allStatuses'], hi['status.pending'], hi['status.approved'], hi['status.declined'], hi['status.completed']]);
    await open(page, '/exchange/new');
    await see(page, hi['new.title']);
    await page.getByRole('button', { name: hi['new.submit'] }).click();
    await see(page, hi['new.fillRequired']);
    await see(page, hi['new.needImage']);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('productName');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await open(page, '/dashboard');

    // the switch offers English, named in English; choosing it saves the profile and reloads
    const toEnglish = page.getByTestId('language-switch');
    expect(await toEnglish.innerText()).toBe('English');
    await Promise.all([page.waitForEvent('load'), toEnglish.click()]);
    await hydrated(page);
    expect(await htmlLang(page)).toBe('en');
    await see(page, en['dashboard.title']);
    await see(page, 'Credit: ₹1,25,000.00');
    expect((await server.api<{ language: string }>('GET', '/api/auth/profile', token)).body.language).toBe('en');

    // it sticks: another browser that asks for Hindi, signed in as the same customer, reads English
    await context.close();
    const other = await browser.newContext({ baseURL: server.url, viewport: PHONE, locale: 'hi-IN' });
    const again = await other.newPage();
    await open(again, '/email-signin');
    await see(again, hi['signIn.title']);
    await again.getByLabel(hi['signIn.emailLabel']).fill(EMAIL);
    await again.getByRole('button', { name: hi['signIn.continue'] }).click();
    await see(again, hi['signIn.sent'].replace('{email}', EMAIL));
    await again.goto(await server.signInLink(EMAIL));
    await again.waitForURL(/\/dashboard$/);
    await hydrated(again);
    expect(await htmlLang(again)).toBe('en');
    await see(again, en['dashboard.title']);
    await other.close();
  }, 150_000);

  test('signed out, the switch keeps the choice in a cookie: an English browser chooses हिन्दी and the sign-in page stays Hindi', async () => {
    const context = await browser.newContext({ baseURL: server.url, viewport: PHONE, locale: 'en-IN' });
    const page = await context.newPage();
    await open(page, '/email-signin');
    expect(await htmlLang(page)).toBe('en');
    await see(page, en['signIn.title']);
    await Promise.all([page.waitForEvent('load'), page.getByTestId('language-switch').click()]);
    await hydrated(page);
    expect(await htmlLang(page)).toBe('hi');
    await see(page, hi['signIn.title']);
    await open(page, '/no-such-page');
    await see(page, hi['notFound.title']);
    await context.close();
  }, 60_000);
});
