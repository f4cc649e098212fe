import { describe, expect, test } from 'bun:test';
import { newPerson, PHONE, screenshot, seriousAccessibilityViolations, signedInPerson, signInThroughPages, useServerAndBrowser } from '#tests/helpers/browser.ts';
import { ROOT } from '#tests/helpers/cli.ts';
import { appendFileSync, copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// the owner's terms (TERMS_FILE): a copy this file may edit, as an owner edits theirs
const termsDir = mkdtempSync(join(tmpdir(), 'sp-terms-'));
const termsFile = join(termsDir, 'terms.md');
copyFileSync(join(ROOT, 'content/terms.md'), termsFile);

const app = useServerAndBrowser({ TERMS_FILE: termsFile });

describe('sign-in in the browser', () => {
  test('request a link, read it with `swappoints mail list --json`, open it, land on /dashboard, stay signed in, log out', async () => {
    const { context, page } = await newPerson(app.browser, app.server);
    await page.goto('/');
    expect(new URL(page.url()).pathname).toBe('/email-signin');
    await expect(page.getByText('You need a customer account at our shop to sign in.', { exact: false }).isVisible()).resolves.toBe(true);
    await screenshot(page, 'sign-in');

    await signInThroughPages(page, app.server, 'asha.rao@example.com');
    await page.waitForURL('**/dashboard');
    await expect(page.getByRole('heading', { name: 'Your Dashboard' }).isVisible()).resolves.toBe(true);
    await expect(page.getByText('Signed in as asha.rao@example.com').isVisible()).resolves.toBe(true);
    await expect(page.getByRole('heading', { name: 'Available Loyalty Points' }).isVisible()).resolves.toBe(true);
    expect(await page.getByTestId('credit-amount').textContent()).toBe('₹0.00');
    expect(await page.getByTestId('card-holder').textContent()).toBe('ASHA.RAO');
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'))).toMatchObject({ email: 'asha.rao@example.com' });
    expect(await page.evaluate(() => localStorage.getItem('user'))).not.toContain('sessionToken');
    await screenshot(page, 'dashboard-signed-in');

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Your Dashboard' }).isVisible()).resolves.toBe(true);

    // the page hydrated under a nonce-only policy, and a script injected without the nonce does not run
    const injected = await page.evaluate(
      () =>
        new Promise<{ ran: boolean; blocked: boolean }>((resolve) => {
          let blocked = false;
          document.addEventListener('securitypolicyviolation', () => (blocked = true), { once: true });
          const script = document.createElement('script');
          script.textContent = 'window.__injected = true';
          document.body.append(script);
          setTimeout(() => resolve({ ran: (window as { __injected?: boolean }).__injected === true, blocked }), 50);
        }),
    );
    expect(injected).toEqual({ ran: false, blocked: true });

    // a signed-in user opening /email-signin goes to /dashboard
    await page.goto('/email-signin');
    await page.waitForURL('**/dashboard');

    await page.getByRole('button', { name: 'Account menu for asha.rao@example.com' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/email-signin');
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    await page.goto('/dashboard');
    await page.waitForURL('**/email-signin?next=%2Fdashboard');
    await context.close();
  });

  test('a sign-in link works once; opening it again says so', async () => {
    const { context, page } = await signedInPerson(app.browser, app.server, 'meera.iyer@example.com');
    const link = await app.server.signInLink('meera.iyer@example.com');
    // the same browser kept no emailForSignIn; a second browser that still has it gets the reuse message
    const other = await newPerson(app.browser, app.server);
    await other.page.goto('/email-signin');
    await other.page.evaluate(() => localStorage.setItem('emailForSignIn', 'meera.iyer@example.com'));
    await other.page.goto(link);
    await other.page.getByText('This sign-in link has already been used. Please request a new one.').waitFor();
    await other.context.close();
    await context.close();
  });

  test("opening a link in a browser that never asked for it says 'No email found. Please try signing in again.'", async () => {
    const { context, page } = await newPerson(app.browser, app.server);
    await page.goto('/verify-email?token=abc');
    await page.getByText('No email found. Please try signing in again.').waitFor();
    expect(page.url()).not.toContain('token=');
    await context.close();
  });

  test('a non-customer sees the not-in-shop message with the registration link', async () => {
    const { context, page } = await newPerson(app.browser, app.server);
    await page.goto('/email-signin');
    await page.getByLabel('Email address').fill('stranger@example.com');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Email "stranger@example.com" is not found in the customer list of the shop.').waitFor();
    const register = page.getByRole('link', { name: 'Create a shop account' });
    expect(await register.getAttribute('href')).toBe('https://shop.example.com/account/register');
    await screenshot(page, 'sign-in-not-in-shop');
    await context.close();
  });

  test("an email without '@' is refused on the page with 'Please enter a valid email address'", async () => {
    const { context, page } = await newPerson(app.browser, app.server);
    await page.goto('/email-signin');
    await page.getByLabel('Email address').fill('asha.rao');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Please enter a valid email address').waitFor();
    await context.close();
  });

  test('an unauthenticated visitor is sent to sign in and returned to the page they asked for', async () => {
    const { context, page } = await newPerson(app.browser, app.server);
    await page.goto('/admin?tab=5');
    await page.waitForURL('**/email-signin?next=%2Fadmin%3Ftab%3D5');
    await signInThroughPages(page, app.server, 'admin@swappoints.demo', page.url());
    await page.waitForURL('**/admin?tab=5');
    await expect(page.getByRole('heading', { name: 'Admin Dashboard' }).isVisible()).resolves.toBe(true);
    await context.close();
  });

  test('a customer opening /admin goes to /dashboard', async () => {
    const { context, page } = await signedInPerson(app.browser, app.server, 'zoe.dsouza@example.com');
    await page.goto('/admin');
    await page.waitForURL('**/dashboard');
    await context.close();
  });

  test('/nope shows Page Not Found with a way back', async () => {
    const { context, page } = await newPerson(app.browser, app.server);
    const response = await page.goto('/nope');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page Not Found' }).isVisible()).resolves.toBe(true);
    expect(await page.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
    await context.close();
  });

  test('on a phone the menu is a drawer with the email, the nav and Logout; it closes on navigation', async () => {
    const { context, page } = await signedInPerson(app.browser, app.server, 'admin@swappoints.demo', PHONE);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog');
    await drawer.waitFor();
    await screenshot(page, 'drawer-phone'); // also waits for the drawer to finish sliding in
    expect(await drawer.getByText('admin@swappoints.demo').isVisible()).toBe(true);
    expect(await drawer.getByText('Admin', { exact: true }).isVisible()).toBe(true);
    expect(await drawer.evaluate((el) => getComputedStyle(el).width)).toBe('250px');
    // an admin lands on /admin; the drawer takes them to the customer's pages too
    await drawer.getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL('**/dashboard');
    await drawer.waitFor({ state: 'detached' });
    await context.close();
  });

  test('signing in agrees to the terms in force; when the owner changes them a signed-in phone user is asked again, and "I agree" records it', async () => {
    const { context, page } = await signedInPerson(app.browser, app.server, 'meera.iyer@example.com', PHONE);
    const banner = page.getByRole('region', { name: 'We updated our terms.' });
    expect(await banner.count()).toBe(0);
    const before = await page.evaluate(() => fetch('/api/legal/agreement').then((r) => r.json()));
    expect(before).toMatchObject({ required: false, agreedVersion: before.currentVersion });

    appendFileSync(termsFile, '\n## Pickups\n\nA courier may collect your parcel.\n');
    await page.goto('/dashboard');
    await expect(banner.isVisible()).resolves.toBe(true);
    await expect(banner.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).resolves.toBe('/terms');
    await screenshot(page, 'terms-updated-phone');
    await banner.getByRole('button', { name: 'I agree' }).click();
    await page.getByText('Your agreement to the updated terms is saved.').waitFor();
    await page.goto('/dashboard');
    expect(await banner.count()).toBe(0);
    const after = await page.evaluate(() => fetch('/api/legal/agreement').then((r) => r.json()));
    expect(after).toMatchObject({ required: false, agreedVersion: after.currentVersion });
    expect(after.currentVersion).not.toBe(before.currentVersion);
    await context.close();
  });

  test('the sign-in page has no serious accessibility problems', async () => {
    const { context, page } = await newPerson(app.browser, app.server);
    await page.goto('/email-signin');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await context.close();
  });
});
