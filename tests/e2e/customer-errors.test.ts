import { afterAll, describe, expect, test } from 'bun:test';
import { looksRightAndAccessible, PHONE, see, signedInPerson, useServerAndBrowser } from '#tests/helpers/browser.ts';
import { SHOPIFY_TOKEN } from '#tests/helpers/fake-shopify-backend.ts';
import { startFakeShopify, type FakeShopify } from '#tests/helpers/fake-shopify.ts';

/**
 * The dashboard's error screen for credit failures, against the server on a (fake) Shopify: the
 * customer vanishing from the shop gives 'Shopify Account Not Found', the shop going away gives
 * 'Connection Error'. (Authentication Error and Something Went Wrong cannot be provoked from a
 * browser: a dead session is sent to sign in first; their mapping is unit-tested in tests/unit.)
 */
let fake: FakeShopify;
const SUPPORT = 'help@swappoints.test';

const app = useServerAndBrowser(async () => {
  fake = await startFakeShopify({ token: SHOPIFY_TOKEN });
  return { SHOP_BACKEND: 'shopify', SHOPIFY_ADMIN_URL: fake.url, SHOPIFY_ADMIN_TOKEN: SHOPIFY_TOKEN, SHOPIFY_TIMEOUT_MS: '30000', SUPPORT_EMAIL: SUPPORT };
});
afterAll(() => fake?.close());

describe('the error screen for credit failures', () => {
  test("the customer gone from the shop: 'Shopify Account Not Found' with Try Again and Contact Support; the shop unreachable: 'Connection Error' with Refresh and Contact Support", async () => {
    const email = 'nila.menon@example.com';
    const customerId = fake.addCustomer(email, { firstName: 'Nila', lastName: 'Menon' });
    fake.creditDirectly(customerId, 120.5);
    const { context, page } = await signedInPerson(app.browser, app.server, email, PHONE);
    expect(await page.getByTestId('credit-amount').textContent()).toBe('₹120.50');

    fake.removeCustomer(email);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await see(page, 'Shopify Account Not Found');
    await see(page, 'User not found in Shopify');
    const screen = page.getByTestId('error-screen');
    expect(await screen.getByRole('button').allTextContents()).toEqual(['Try Again']);
    expect(await screen.getByRole('link', { name: 'Contact Support' }).getAttribute('href')).toStartWith(`mailto:${SUPPORT}?`);
    // the requests are still there to see
    await see(page, "You haven't submitted any exchange requests yet.");
    await looksRightAndAccessible(page, 'customer-error-not-found');
    await screen.getByRole('button', { name: 'Try Again' }).click();
    await see(page, 'Shopify Account Not Found');

    fake.close();
    await page.reload();
    await see(page, 'Connection Error');
    const connection = page.getByTestId('error-screen');
    expect(await connection.getByRole('button').allTextContents()).toEqual(['Refresh']);
    expect(await connection.getByRole('link', { name: 'Contact Support' }).getAttribute('href')).toStartWith(`mailto:${SUPPORT}?`);
    await looksRightAndAccessible(page, 'customer-error-connection');
    await context.close();
  }, 120_000);
});
