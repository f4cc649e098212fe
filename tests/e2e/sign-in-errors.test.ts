import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { newPerson, startServerAndBrowser, stopServerAndBrowser } from '#tests/helpers/browser.ts';
import type { RunningServer } from '#tests/helpers/server.ts';

// The shop's Admin API is unreachable: nothing listens on port 1.
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser({
    SHOP_BACKEND: 'shopify',
    SHOPIFY_ADMIN_URL: 'http://127.0.0.1:1/admin/api/2026-10/graphql.json',
    SHOPIFY_ADMIN_TOKEN: 'shpat_test',
    SHOPIFY_TIMEOUT_MS: '2000',
    SIGNIN_LIMIT_PER_EMAIL: '2',
  }));
}, 120_000);
afterAll(() => stopServerAndBrowser({ server, browser }), 30_000);

async function askForLink(email: string) {
  const person = await newPerson(browser, server);
  await person.page.goto('/email-signin');
  await person.page.getByLabel('Email address').fill(email);
  await person.page.getByRole('button', { name: 'Continue' }).click();
  return person;
}

describe('sign-in when things go wrong', () => {
  test("the shop unreachable: 'Server error: The authentication service is currently unavailable. Please try again later.'", async () => {
    const { context, page } = await askForLink('asha.rao@example.com');
    await page.getByText('Server error: The authentication service is currently unavailable. Please try again later.').waitFor();
    await context.close();
  });

  test("no network: 'Network error: Please check your internet connection and try again.'", async () => {
    const { context, page } = await newPerson(browser, server);
    await page.goto('/email-signin');
    await page.route('**/api/auth/login', (route) => route.abort('internetdisconnected'));
    await page.getByLabel('Email address').fill('asha.rao@example.com');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Network error: Please check your internet connection and try again.').waitFor();
    await context.close();
  });

  test('an admin still gets a link while the shop is down; too many links for one email say how long to wait', async () => {
    expect((await server.cli('admin', 'grant', 'ops@myshop.example')).code).toBe(0);
    for (let i = 0; i < 2; i++) {
      const { context, page } = await askForLink('ops@myshop.example');
      await page.getByText("Account found for ops@myshop.example. We've emailed you a sign-in link.").waitFor();
      await context.close();
    }
    const { context, page } = await askForLink('ops@myshop.example');
    await page.getByText(/^Too many sign-in attempts\. Please wait \d+ minutes? and try again\.$/).waitFor();
    await context.close();
  });

  test("a garbled answer to the link: 'Invalid response from server'", async () => {
    const { context, page } = await newPerson(browser, server);
    await page.goto('/email-signin');
    await page.evaluate(() => localStorage.setItem('emailForSignIn', 'ops@myshop.example'));
    await page.route('**/api/auth/verify-email', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<html>proxy error</html>' }));
    await page.goto('/verify-email?token=whatever');
    await page.getByText('Invalid response from server').waitFor();
    await context.close();
  });

  test("a refusal without a message: 'Failed to verify email'", async () => {
    const { context, page } = await newPerson(browser, server);
    await page.goto('/email-signin');
    await page.evaluate(() => localStorage.setItem('emailForSignIn', 'ops@myshop.example'));
    await page.route('**/api/auth/verify-email', (route) => route.fulfill({ status: 400, contentType: 'application/json', body: '{"success":false}' }));
    await page.goto('/verify-email?token=whatever');
    await page.getByText('Failed to verify email').waitFor();
    await context.close();
  });
});
