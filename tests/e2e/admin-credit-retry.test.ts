import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { startFakeShopify, type FakeShopify } from '#tests/helpers/fake-shopify.ts';
import { DESKTOP, looksRightAndAccessible, PHONE, see, signedInPerson, startServerAndBrowser, stopServerAndBrowser } from '#tests/helpers/browser.ts';
import { submitRequestThroughApi, submitShippingThroughApi } from '#tests/helpers/requests.ts';
import type { RunningServer } from '#tests/helpers/server.ts';
import { ADMIN_EMAIL } from './admin-helpers.ts';
import { shotAndAxe } from './journey-helpers.ts';

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
    // The shop refuses every credit until the last Retry: the server's own credit-push job (every
    // 10 s, each credit due again 60 s or more after a failure) would otherwise be free to push it
    // first when this test runs slowly, and the Retries below would find it already there.
    fake.injectUntilCleared({ kind: 'http500', apply: false }, 'SwapPointsCredit');
    await admin.getByRole('button', { name: 'Assign Loyalty Points' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Assign Loyalty Points' });
    await dialog.getByLabel(/^Credit Amount/).fill('300');
    await dialog.getByRole('button', { name: 'Assign Loyalty Points' }).click();
    await dialog.getByRole('button', { name: 'Give ₹300.00' }).click();
    await see(dialog, 'The credit is recorded, but the shop has not accepted it yet. It is retried automatically; see Credit History.');
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await dialog.waitFor({ state: 'detached' });
    await admin.getByTestId('assigned-points').filter({ hasText: '₹300.00' }).waitFor();
    const customerId = fake.customerId('asha.rao@example.com')!;
    expect(fake.balance(customerId)).toBe(0);

    await admin.goto('/admin?tab=4');
    const row = admin.getByTestId('credit-history-row').filter({ hasText: 'Canon 057 Toner' });
    expect(await row.getByRole('cell').nth(5).getByText('Failed', { exact: true }).count()).toBe(1);
    await looksRightAndAccessible(admin, 'admin-credit-history-failed');

    // The customer sees this item's credit apart from a balance that does not hold it yet.
    const customer = await signedInPerson(browser, server, 'asha.rao@example.com');
    await customer.page.goto(`/exchange/${id}`);
    await see(customer.page.getByTestId('next-step'), '₹300.00 credit assigned for this item.');
    await see(customer.page.getByTestId('next-step'), 'pending with the shop', { exact: false });
    await see(customer.page, 'Pending with the shop: it shows in your balance once the shop has it.');
    await see(customer.page, 'Your store credit balance');
    await shotAndAxe(customer.page, 'customer-credit-pending-with-shop-desktop');
    await customer.page.setViewportSize(PHONE);
    await customer.page.reload();
    await see(customer.page.getByTestId('next-step'), 'pending with the shop', { exact: false });
    await see(customer.page, 'Pending with the shop: it shows in your balance once the shop has it.');
    await shotAndAxe(customer.page, 'customer-credit-pending-with-shop-phone');
    await customer.context.close();

    // A Retry the shop refuses again says why and how many attempts were made.
    await row.getByRole('button', { name: /^Retry/ }).click();
    const refused = admin.getByTestId('flash');
    await refused.filter({ hasText: 'The shop refused the credit again' }).waitFor();
    expect(await refused.getAttribute('data-tone')).toBe('error');
    const REFUSED = /The shop refused the credit again \((\d+) attempts so far\): .+\. It will be retried automatically\./;
    const attempts = Number(REFUSED.exec((await refused.textContent()) ?? '')?.[1]);
    expect(attempts).toBeGreaterThanOrEqual(2);
    await shotAndAxe(admin, 'admin-retry-failed-again-desktop');
    expect(fake.balance(customerId)).toBe(0);

    // the same on a phone, one attempt more
    await admin.setViewportSize(PHONE);
    await admin.goto('/admin?tab=4');
    await row.getByRole('button', { name: /^Retry/ }).click();
    await refused.filter({ hasText: `(${attempts + 1} attempts so far)` }).waitFor();
    expect(await refused.textContent()).toMatch(REFUSED);
    await shotAndAxe(admin, 'admin-retry-failed-again-phone');
    await admin.setViewportSize(DESKTOP);
    expect(fake.balance(customerId)).toBe(0);

    fake.clearFaults(); // the shop accepts again
    await row.getByRole('button', { name: /^Retry/ }).click();
    await row.getByText('Success', { exact: true }).waitFor();
    await see(admin.getByTestId('flash'), 'The credit reached the shop.');
    expect(await row.getByRole('button', { name: /^Retry/ }).count()).toBe(0);
    expect(fake.balance(customerId)).toBe(300);
  }, 90_000);
});
