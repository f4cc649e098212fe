import { afterAll, beforeAll, describe, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { newPerson, see, startServerAndBrowser, stopServerAndBrowser } from '#tests/helpers/browser.ts';
import type { RunningServer } from '#tests/helpers/server.ts';

/**
 * Client fallbacks only: answers to the sign-in link that our server never gives (it always sends
 * JSON with a message), but a broken proxy or captive portal in between could. The page must still
 * say something true. The answers are stood in with page.route; the server's own failures are in
 * sign-in-errors.test.ts.
 */

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser());
}, 120_000);
afterAll(() => stopServerAndBrowser({ server, browser }), 30_000);

/** Opens a sign-in link in a browser that asked for it, with the answer to verify-email stood in by `answer`. */
async function openLinkAnswered(answer: { status: number; contentType: string; body: string }): Promise<Page> {
  const { page } = await newPerson(browser, server);
  await page.goto('/email-signin');
  await page.evaluate(() => localStorage.setItem('emailForSignIn', 'ops@myshop.example'));
  await page.route('**/api/auth/verify-email', (route) => route.fulfill(answer));
  await page.goto('/verify-email?token=whatever');
  return page;
}

describe('sign-in link answers only a proxy could give (client fallbacks)', () => {
  test("an HTML page instead of JSON: 'Invalid response from server'", async () => {
    const page = await openLinkAnswered({ status: 200, contentType: 'text/html', body: '<html>proxy error</html>' });
    await see(page, 'Invalid response from server');
    await page.context().close();
  });

  test("a success without the user: 'Invalid response from server'", async () => {
    const page = await openLinkAnswered({ status: 200, contentType: 'application/json', body: '{"success":true}' });
    await see(page, 'Invalid response from server');
    await page.context().close();
  });

  test("a refusal without a message: 'Failed to verify email'", async () => {
    const page = await openLinkAnswered({ status: 400, contentType: 'application/json', body: '{"success":false}' });
    await see(page, 'Failed to verify email');
    await page.context().close();
  });
});
