import { describe, expect, test } from 'bun:test';
import { newPerson, see, signedInPerson, signInThroughPages, useServerAndBrowser } from '#tests/helpers/browser.ts';
import { eventually } from './customer-helpers.ts';
import { shotAndAxe, WIDTHS } from './journey-helpers.ts';

// three links per email per 15 minutes, so 'Send a new link' meets the limit within one test
const app = useServerAndBrowser({ SIGNIN_LIMIT_PER_EMAIL: '3' });

const signInMails = async (email: string) =>
  (JSON.parse((await app.server.cli('mail', 'list', '--to', email, '--json')).stdout) as { kind: string }[]).filter((m) => m.kind === 'sign_in').length;

describe('sign-in journeys', () => {
  for (const [name, viewport] of WIDTHS) {
    test(`a link opened on another device (${name}): the spec's line, then the email field finishes the sign-in; a wrong email is refused`, async () => {
      const email = name === 'desktop' ? 'asha.rao@example.com' : 'meera.iyer@example.com';
      const laptop = await newPerson(app.browser, app.server);
      await laptop.page.goto('/email-signin');
      await laptop.page.getByLabel('Email address').fill(email);
      await laptop.page.getByRole('button', { name: 'Continue' }).click();
      await see(laptop.page, 'Check your email');
      const link = await app.server.signInLink(email);

      // a fresh browser context: nothing saved under emailForSignIn
      const phone = await newPerson(app.browser, app.server, viewport);
      await phone.page.goto(link);
      await see(phone.page, 'No email found. Please try signing in again.');
      expect(phone.page.url()).not.toContain('token=');
      await shotAndAxe(phone.page, `sign-in-other-device-${name}`);

      await phone.page.getByLabel('Enter the email you asked the link for').fill('zoe.dsouza@example.com');
      await phone.page.getByRole('button', { name: 'Finish signing in' }).click();
      await see(phone.page, 'This sign-in link is not valid for this email address. Please request a new one.');

      await phone.page.getByLabel('Enter the email you asked the link for').fill(`  ${email.toUpperCase()} `);
      await phone.page.getByRole('button', { name: 'Finish signing in' }).click();
      await see(phone.page, `Welcome back! Account found for ${email}. Redirecting to dashboard...`);
      await phone.page.waitForURL('**/dashboard');
      await see(phone.page, 'Your Dashboard');
      await phone.context.close();
      await laptop.context.close();
    });
  }

  // one email per width: each meets the three-link limit of its own
  const CHECK_EMAIL = { desktop: 'zoe.dsouza@example.com', phone: 'kiran.patel@example.com' } as const;
  for (const [name, viewport] of WIDTHS) {
    test(`after 'Check your email' (${name}): the link's expiry, 'Send a new link' up to the limit, 'Use a different email'`, async () => {
      const email = CHECK_EMAIL[name];
      const { context, page } = await newPerson(app.browser, app.server, viewport);
      await page.goto('/email-signin');
      await page.getByLabel('Email address').fill(email);
      await page.getByRole('button', { name: 'Continue' }).click();
      await see(page, 'Check your email');
      await see(page, 'The link expires in 10 minutes', { exact: false });
      await shotAndAxe(page, `sign-in-check-email-${name}`);
      expect(await signInMails(email)).toBe(1);

      await page.getByRole('button', { name: 'Send a new link' }).click();
      await see(page, `We've sent a new link to ${email}. Use the newest email.`);
      expect(await signInMails(email)).toBe(2);
      await page.getByRole('button', { name: 'Send a new link' }).click();
      await eventually(() => signInMails(email), 3);
      await see(page, `We've sent a new link to ${email}. Use the newest email.`);
      // three links per 15 minutes: the page stops asking where the server stops sending
      await see(page, 'That is as many links as we send in 15 minutes. Use the newest email, or ask again later.');
      expect(await page.getByRole('button', { name: 'Send a new link' }).isDisabled()).toBe(true);
      expect(await signInMails(email)).toBe(3);

      await page.getByRole('button', { name: 'Use a different email' }).click();
      const field = page.getByLabel('Email address');
      await field.waitFor();
      expect(await field.inputValue()).toBe('');
      await page.waitForFunction(() => document.activeElement?.id === 'email');
      expect(await page.getByText('Check your email').count()).toBe(0);
      expect(await page.evaluate(() => localStorage.getItem('emailForSignIn'))).toBeNull();
      await context.close();
    });
  }

  test('the not-in-shop message names the shop (SHOP_NAME, "the shop" by default), not a Shopify database', async () => {
    const { context, page } = await newPerson(app.browser, app.server);
    await page.goto('/email-signin');
    await page.getByLabel('Email address').fill('stranger@example.com');
    await page.getByRole('button', { name: 'Continue' }).click();
    await see(page, 'Email "stranger@example.com" is not found in the customer list of the shop.');
    await see(page, 'Only customers of the shop can trade items in.', { exact: false });
    expect(await page.getByText('Shopify').count()).toBe(0);
    await shotAndAxe(page, 'sign-in-not-in-shop');
    await context.close();
  });

  test('the sign-in and verify pages show no Login button; other signed-out pages do', async () => {
    const { context, page } = await newPerson(app.browser, app.server);
    const header = page.getByRole('banner');
    await page.goto('/email-signin');
    await see(page, 'Sign in to SwapPoints');
    expect(await header.getByRole('link', { name: 'Login' }).count()).toBe(0);
    await page.goto('/verify-email');
    await see(page, 'No email found. Please try signing in again.');
    expect(await header.getByRole('link', { name: 'Login' }).count()).toBe(0);
    await page.goto('/nope');
    expect(await header.getByRole('link', { name: 'Login' }).count()).toBe(1);
    await context.close();
  });

  test('an old link opened while signed in goes to the dashboard, not "We could not sign you in"', async () => {
    const { context, page } = await signedInPerson(app.browser, app.server, 'rahul.sharma@example.com');
    const used = await app.server.signInLink('rahul.sharma@example.com');
    await page.goto(used);
    await page.waitForURL('**/dashboard');
    await see(page, 'Your Dashboard');
    expect(await page.getByText('We could not sign you in').count()).toBe(0);
    await context.close();
  });

  test('an admin lands on /admin after sign-in, unless the link was asked for from another page', async () => {
    const first = await newPerson(app.browser, app.server);
    await signInThroughPages(first.page, app.server, 'admin@swappoints.demo');
    await first.page.waitForURL('**/admin');
    await see(first.page, 'Admin Dashboard');
    await first.context.close();

    const second = await newPerson(app.browser, app.server);
    await second.page.goto('/exchange');
    await second.page.waitForURL('**/email-signin?next=%2Fexchange');
    await signInThroughPages(second.page, app.server, 'admin@swappoints.demo', second.page.url());
    await second.page.waitForURL('**/exchange');
    await second.context.close();
  });
});
