import { describe, expect, test } from 'bun:test';
import { newPerson, see, useServerAndBrowser } from '#tests/helpers/browser.ts';
import { startServer, type RunningServer } from '#tests/helpers/server.ts';

// The shop's Admin API is unreachable: nothing listens on port 1.
const SHOP_DOWN = {
  SHOP_BACKEND: 'shopify',
  SHOPIFY_ADMIN_URL: 'http://127.0.0.1:1/admin/api/2026-10/graphql.json',
  SHOPIFY_ADMIN_TOKEN: 'shpat_test',
  SHOPIFY_TIMEOUT_MS: '2000',
  SIGNIN_LIMIT_PER_EMAIL: '2',
  SIGNIN_LIMIT_PER_IP: '6',
};

const app = useServerAndBrowser(SHOP_DOWN);

async function askForLink(email: string, on = app.server) {
  const person = await newPerson(app.browser, on);
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

  test("the server gone between loading the page and asking: 'Network error: Please check your internet connection and try again.'", async () => {
    // a server of its own, stopped for real once the page is loaded
    const own = await startServer();
    try {
      const { context, page } = await newPerson(app.browser, own);
      await page.goto('/email-signin');
      await own.stop();
      await page.getByLabel('Email address').fill('asha.rao@example.com');
      await page.getByRole('button', { name: 'Continue' }).click();
      await see(page, 'Network error: Please check your internet connection and try again.');
      await context.close();
    } finally {
      await own.stop();
    }
  });

  test('an admin still gets a link while the shop is down; past the per-email limit no more mail goes out; too many from one address say how long to wait', async () => {
    // a server of its own: the per-address limit this test reaches would refuse the other tests' asks
    const own = await startServer(SHOP_DOWN);
    try {
      expect((await own.cli('admin', 'grant', 'ops@myshop.example')).code).toBe(0);
      for (let i = 0; i < 3; i++) {
        const { context, page } = await askForLink('ops@myshop.example', own);
        await page.getByText("Account found for ops@myshop.example. We've emailed you a sign-in link.").waitFor();
        await context.close();
      }
      const mail = await own.cli('mail', 'list', '--to', 'ops@myshop.example', '--json');
      expect(JSON.parse(mail.stdout)).toHaveLength(2);
      // SIGNIN_LIMIT_PER_IP (6) counts every ask from this address, whichever email
      for (let i = 0; i < 6; i++) {
        const { context, page } = await askForLink(`nobody${i}@myshop.example`, own);
        const limited = page.getByText(/^Too many sign-in attempts\. Please wait \d+ minutes? and try again\.$/);
        const answered = await Promise.race([limited.waitFor().then(() => true), page.getByText('Server error:', { exact: false }).waitFor().then(() => false)]);
        await context.close();
        if (answered) return;
      }
      throw new Error('the per-address limit never answered 429');
    } finally {
      await own.stop();
    }
  });
});
