import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { startFakeShopify, type FakeShopify } from '#tests/helpers/fake-shopify.ts';
import { looksRightAndAccessible, see, signedInPerson, startServerAndBrowser, stopServerAndBrowser } from '#tests/helpers/browser.ts';
import { submitRequestThroughApi, submitShippingThroughApi } from '#tests/helpers/requests.ts';
import type { RunningServer } from '#tests/helpers/server.ts';
import { ADMIN_EMAIL } from './admin-helpers.ts';

/**
 * A credit the shop refuses at first (the fake Shopify Admin API answers 500): the admin is told,
 * the credit history shows it Failed with Retry, and Retry turns it into a Success.
 */

const SHOPIFY_TOKEN = 'shpat_admin_retry_test';
let fake: FakeShopify;
let server: RunningServer;
let browser: Browser;
let admin: Page;

beforeAll(async () => {
  fake = await startFakeShopify({ token: SHOPIFY_TOKEN });
  fake.addCustomer('asha.rao@example.com', { firstName: 'Asha', lastName: 'Rao' });
  ({ server, browser } = await startServerAndBrowser({ SHOP_BACKEND: 'shopify', SHOPIFY_ADMIN_URL: fake.url, SHOPIFY_ADMIN_TOKEN: SHOPIFY_TOKEN, SHOPIFY_TIMEOUT_MS: '10000' }));
  ({ page: admin } = await signedInPerson(browser, server, ADMIN_EMAIL));
}, 120_000);
afterAll(async () => {
  await stopServerAndBrowser({ server, browser });
  fake?.close();
}, 30_000);

describe('a credit the shop did not accept', () => {
  test('Assign Loyalty Points says so; the credit history shows Failed with Retry; Retry makes it a Success', async () => {
    const [adminToken, customerToken] = await Promise.all([server.apiSignIn(ADMIN_EMAIL), server.apiSignIn('asha.rao@example.com')]);
    const warehouses = await server.api<{ id: string; isActive: boolean }[]>('GET', '/api/admin/warehouses', adminToken);
    const id = await submitRequestThroughApi(server, customerToken, { productName: 'Canon 057 Toner', brand: 'Canon', condition: 'new', description: 'Sealed.' });
    await server.api('PUT', `/api/admin/exchange-requests/${id}/status`, adminToken, { status: 'approved', warehouseId: warehouses.body.find((w) => w.isActive)!.id });
    await submitShippingThroughApi(server, customerToken, id);
    await server.api('PUT', `/api/admin/exchange-requests/${id}/transit`, adminToken, { transitStatus: 'received' });

    await admin.goto(`/admin/exchange/${id}`);
    fake.inject({ kind: 'http500', apply: false }, 'SwapPointsCredit');
    await admin.getByRole('button', { name: 'Assign Loyalty Points' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Assign Loyalty Points' });
    await dialog.getByLabel(/^Credit Amount/).fill('300');
    await dialog.getByRole('button', { name: 'Assign Loyalty Points' }).click();
    await see(dialog, 'The credit is recorded, but the shop has not accepted it yet. It is retried automatically; see Credit History.');
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await dialog.waitFor({ state: 'detached' });
    await admin.getByTestId('assigned-points').filter({ hasText: '₹300.00' }).waitFor();
    const customerId = fake.customerId('asha.rao@example.com')!;
    expect(fake.balance(customerId)).toBe(0);

    await admin.goto('/admin?tab=4');
    const row = admin.getByTestId('credit-history-row').filter({ hasText: id });
    expect(await row.getByRole('cell').nth(5).getByText('Failed', { exact: true }).count()).toBe(1);
    await looksRightAndAccessible(admin, 'admin-credit-history-failed');
    await row.getByRole('button', { name: /^Retry/ }).click();
    await row.getByText('Success', { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: /^Retry/ }).count()).toBe(0);
    expect(fake.balance(customerId)).toBe(300);
  }, 90_000);
});
