import { describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { nextDay, startOfDayIn, todayIn } from '#api/lib/days.ts';
import { ADMIN_SIGN_IN_NOTE } from '#src/components/auth/sign-in-form.tsx';
import { formatDate } from '#src/lib/requests.ts';
import { DESKTOP, newPerson, PHONE, screenshot, see, seriousAccessibilityViolations, signedInPerson, useServerAndBrowser } from '#tests/helpers/browser.ts';
import { png } from '#tests/helpers/images.ts';
import { submitRequestThroughApi } from '#tests/helpers/requests.ts';

/** Issue 26: the walk through both roles, on a laptop and a phone. */
const app = useServerAndBrowser();

const CUSTOMER = 'kiran.patel@example.com';
const ADMIN = 'admin@swappoints.demo';

async function mailCount(email: string): Promise<number> {
  const result = await app.server.cli('mail', 'list', '--to', email, '--json');
  return (JSON.parse(result.stdout) as { kind: string }[]).filter((m) => m.kind === 'sign_in').length;
}

/** The page is no wider than the screen: nothing to scroll sideways. */
async function sidewaysScroll(page: Page): Promise<{ path: string; scrollWidth: number; viewport: number } | null> {
  const { scrollWidth, viewport } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, viewport: window.innerWidth }));
  return scrollWidth > viewport ? { path: new URL(page.url()).pathname + new URL(page.url()).search, scrollWidth, viewport } : null;
}

describe('signing in, said calmly', () => {
  test('a link opened in another browser shows the finish form with the spec sentence as its explanation, not as a failure', async () => {
    const { context, page } = await newPerson(app.browser, app.server, PHONE);
    await page.goto('/verify-email?token=abc');
    await page.getByRole('heading', { name: 'Finish signing in' }).waitFor();
    expect(await page.getByTestId('finish-sign-in-why').textContent()).toContain('No email found. Please try signing in again.');
    expect(await page.getByText('We could not sign you in').count()).toBe(0);
    expect(await page.locator('[data-slot="alert"]').count()).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'walk-finish-sign-in-phone');
    await context.close();
  });

  test('a used link says it was used and mails a new link at a click', async () => {
    const first = await signedInPerson(app.browser, app.server, CUSTOMER);
    const link = await app.server.signInLink(CUSTOMER);
    await first.context.close();
    const { context, page } = await newPerson(app.browser, app.server);
    await page.goto('/email-signin');
    await page.evaluate((email) => localStorage.setItem('emailForSignIn', email), CUSTOMER);
    await page.goto(link);
    await see(page, 'This sign-in link was already used');
    await see(page, 'This sign-in link has already been used. Please request a new one.');
    const before = await mailCount(CUSTOMER);
    await page.getByRole('button', { name: 'Email me a new link' }).click();
    await see(page, `We've emailed a new sign-in link to ${CUSTOMER}. Open the newest email.`);
    expect(await mailCount(CUSTOMER)).toBe(before + 1);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await context.close();
  });

  test('a signed-out admin opening /admin is told that admins sign in here too', async () => {
    const { context, page } = await newPerson(app.browser, app.server);
    await page.goto('/admin');
    await page.waitForURL('**/email-signin?next=%2Fadmin');
    expect(await page.getByTestId('sign-in-who').textContent()).toBe(ADMIN_SIGN_IN_NOTE);
    await page.goto('/email-signin');
    expect(await page.getByTestId('sign-in-who').textContent()).toContain('You need a customer account at our shop to sign in.');
    await context.close();
  });
});

describe('terms and privacy', () => {
  test('sign-in links to real /terms and /privacy pages; every page has them in its footer; no "#" links are left', async () => {
    const { context, page } = await newPerson(app.browser, app.server, PHONE);
    await page.goto('/email-signin');
    expect(await page.locator('a[href="#"], a[href^="#"]:not([href="#main"])').count()).toBe(0);
    await page.getByRole('link', { name: 'Privacy Policy' }).first().click();
    await page.waitForURL('**/privacy');
    await page.getByRole('heading', { name: 'Privacy Policy', level: 1 }).waitFor();
    await see(page, 'We answer every grievance within 90 days', { exact: false });
    expect(await page.getByRole('link', { name: 'support@swappoints.local' }).first().getAttribute('href')).toBe('mailto:support@swappoints.local');
    expect(await page.getByText('{{').count()).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'walk-privacy-phone');
    const footer = page.getByRole('navigation', { name: 'Legal' });
    await footer.getByRole('link', { name: 'Terms of Service' }).click();
    await page.waitForURL('**/terms');
    await page.getByRole('heading', { name: 'Terms of Service', level: 1 }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await context.close();
  });
});

describe('no page scrolls sideways on a phone (390 px)', () => {
  test('every customer and admin page, with data', async () => {
    const token = await app.server.apiSignIn(CUSTOMER);
    const id = await submitRequestThroughApi(app.server, token, { productName: 'HP 88A Black Toner Cartridge with a long product name', brand: 'HP', condition: 'good', description: 'Used once' });
    const wide: unknown[] = [];
    const customer = await signedInPerson(app.browser, app.server, CUSTOMER, PHONE);
    for (const path of ['/dashboard', '/exchange', '/exchange/new', `/exchange/${id}`, '/terms', '/privacy', '/nope']) {
      await customer.page.goto(path);
      wide.push(await sidewaysScroll(customer.page));
    }
    await customer.context.close();
    const admin = await signedInPerson(app.browser, app.server, ADMIN, PHONE);
    const adminPaths = ['/admin', ...[1, 2, 3, 4, 5].map((tab) => `/admin?tab=${tab}`), `/admin/exchange/${id}`, '/admin/analytics', '/admin/valuation', '/admin/webhooks'];
    for (const path of adminPaths) {
      await admin.page.goto(path);
      wide.push(await sidewaysScroll(admin.page));
    }
    await admin.context.close();
    const visitor = await newPerson(app.browser, app.server, PHONE);
    for (const path of ['/email-signin', '/verify-email?token=abc']) {
      await visitor.page.goto(path);
      wide.push(await sidewaysScroll(visitor.page));
    }
    await visitor.context.close();
    expect(wide.filter(Boolean)).toEqual([]);
  }, 180_000);
});

describe('admin tables on a phone', () => {
  test('a table wider than the screen keeps its first column in place and shows a shadow cue at its edge', async () => {
    const admin = await signedInPerson(app.browser, app.server, ADMIN, PHONE, '/admin?tab=5'); // the warehouses: name, address, actions
    const table = admin.page.locator('[data-slot="table-container"]').first();
    const sizes = await table.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, background: getComputedStyle(el).backgroundImage }));
    expect(sizes.scroll).toBeGreaterThan(sizes.client); // the case this is about: more columns than fit
    expect(sizes.background).toContain('radial-gradient');
    const firstCell = table.locator('tbody tr').first().locator('td').first();
    const lastCell = table.locator('tbody tr').first().locator('td').last();
    const before = [(await firstCell.boundingBox())!.x, (await lastCell.boundingBox())!.x];
    await table.evaluate((el) => el.scrollBy({ left: 400 }));
    const after = [(await firstCell.boundingBox())!.x, (await lastCell.boundingBox())!.x];
    expect(after[0]).toBe(before[0]!);
    expect(after[1]).toBeLessThan(before[1]!);
    await screenshot(admin.page, 'walk-admin-warehouses-phone');
    expect(await seriousAccessibilityViolations(admin.page)).toEqual([]);
    await admin.context.close();
  });
});

describe('text limits in the forms', () => {
  test('a warehouse name stops at its limit and says so in the API’s own sentence; the entry form does the same', async () => {
    const admin = await signedInPerson(app.browser, app.server, ADMIN, DESKTOP, '/admin?tab=5');
    await admin.page.getByRole('button', { name: 'Add Warehouse' }).click();
    const dialog = admin.page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('x'.repeat(250));
    expect((await dialog.getByLabel('Name').inputValue()).length).toBe(200);
    await see(dialog, 'Name can be at most 200 characters.');
    await dialog.getByLabel('Name').fill('x'.repeat(170));
    await see(dialog, '170/200 characters');
    expect(await seriousAccessibilityViolations(admin.page)).toEqual([]);
    await admin.page.keyboard.press('Escape');
    await admin.page.goto('/admin/valuation');
    await admin.page.getByRole('button', { name: 'Add Entry' }).click();
    const entry = admin.page.getByRole('dialog', { name: 'Add Guide Entry' });
    await entry.getByLabel('Brand *').fill('b'.repeat(120));
    await see(entry, 'Brand can be at most 100 characters.');
    await admin.context.close();
  });
});

describe('text limits on the customer’s form', () => {
  test('Product Name stops at 200 characters and says so in the API’s sentence', async () => {
    const { page, context } = await signedInPerson(app.browser, app.server, CUSTOMER, PHONE, '/exchange/new');
    await page.getByLabel('Product Name').fill('p'.repeat(230));
    expect((await page.getByLabel('Product Name').inputValue()).length).toBe(200);
    await see(page, 'Product Name can be at most 200 characters.');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await context.close();
  });
});

describe('the Valuation page says what happened', () => {
  test('saving, adding and ending end in a toast; deleting a rule asks first; campaign days are the shop’s (Asia/Kolkata)', async () => {
    const { page, context } = await signedInPerson(app.browser, app.server, ADMIN, DESKTOP, '/admin/valuation');
    await page.getByRole('button', { name: 'Save Multipliers' }).click();
    await see(page, 'Condition multipliers saved. New quotes use them now.');

    const rules = page.getByRole('form', { name: 'Add a rule' });
    await rules.getByLabel('Brand *').fill('Lexmark');
    await rules.getByLabel('Reason customers see *').fill('We do not take Lexmark parts yet.');
    await rules.getByRole('button', { name: 'Add Rule' }).click();
    await see(page, 'Rule added: Lexmark is refused with its reason.');
    await page.getByRole('button', { name: 'Delete the rule for Lexmark' }).click();
    const confirm = page.getByRole('alertdialog');
    await see(confirm, 'Delete the rule for Lexmark?');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await see(page, 'Lexmark: We do not take Lexmark parts yet.', { exact: false });
    await page.getByRole('button', { name: 'Delete the rule for Lexmark' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await see(page, 'Rule for Lexmark deleted: these items can be submitted again.');
    expect(await page.getByText('We do not take Lexmark parts yet.').count()).toBe(0);

    const today = todayIn('Asia/Kolkata');
    const campaigns = page.getByRole('form', { name: 'Add a campaign' });
    await campaigns.getByLabel('Name *').fill('Shop-day sale');
    await campaigns.getByLabel('Value *').fill('5');
    await campaigns.getByLabel('From *').fill(today);
    await campaigns.getByLabel('Until (included) *').fill(today);
    await campaigns.getByRole('button', { name: 'Add Campaign' }).click();
    await see(page, 'Campaign "Shop-day sale" added.');
    const token = await app.server.apiSignIn(ADMIN);
    const list = await app.server.api<{ id: number; name: string; startsAt: string; endsAt: string }[]>('GET', '/api/admin/valuation/campaigns', token);
    const added = list.body.find((c) => c.name === 'Shop-day sale')!;
    expect([added.startsAt, added.endsAt]).toEqual([startOfDayIn(today, 'Asia/Kolkata').toISOString(), startOfDayIn(nextDay(today), 'Asia/Kolkata').toISOString()]);

    // an upcoming campaign ended now shows the shop's today, not the UTC date
    const later = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    await app.server.api('POST', '/api/admin/valuation/campaigns', token, { name: 'Later sale', kind: 'amount', value: 50, startsAt: later, endsAt: later });
    await page.reload();
    const row = page.getByTestId('campaign').filter({ hasText: 'Later sale' });
    await row.getByRole('button', { name: 'End now' }).click();
    await see(page, 'Campaign "Later sale" ended: new quotes and credits no longer get its bonus.');
    const shown = formatDate(new Date(), 'en-IN', 'Asia/Kolkata');
    await see(page.getByTestId('campaign').filter({ hasText: 'Later sale' }), `${shown} – ${shown}`, { exact: false });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await context.close();
  });
});

describe('small things', () => {
  test('after an upload the keyboard is back on Add Photos', async () => {
    const { page, context } = await signedInPerson(app.browser, app.server, CUSTOMER, DESKTOP, '/exchange/new');
    const input = page.locator('#product-images');
    await input.focus();
    await input.setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from(png(64, 48)) });
    await see(page, '1/5 images');
    await page.getByRole('progressbar').waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.id === 'product-images', undefined, { timeout: 5_000 });
    await context.close();
  });

  test('on a phone, a pending request shows its details and photos before Approve and Decline', async () => {
    const token = await app.server.apiSignIn(CUSTOMER);
    const id = await submitRequestThroughApi(app.server, token, { productName: 'Canon PG-245 Black', brand: 'Canon', condition: 'good', description: 'Half full' });
    const { page, context } = await signedInPerson(app.browser, app.server, ADMIN, PHONE, `/admin/exchange/${id}`);
    const images = (await page.getByRole('heading', { name: 'Images' }).boundingBox())!;
    const approve = (await page.getByRole('heading', { name: 'Review Request' }).boundingBox())!;
    expect(images.y).toBeLessThan(approve.y);
    await context.close();
  });
});

describe('while something loads', () => {
  test('a slow page shows a progress bar at the top after ~300 ms; it goes when the page arrives', async () => {
    const { page, context } = await signedInPerson(app.browser, app.server, CUSTOMER);
    // the real page, late: held until the bar has shown (at most 1.5 s)
    const barShown = Promise.withResolvers<void>();
    await page.route(
      (url) => url.pathname.startsWith('/RSC/'),
      async (route) => {
        await Promise.race([barShown.promise, Bun.sleep(1_500)]);
        await route.continue();
      },
    );
    const bar = page.getByRole('progressbar', { name: 'Loading page' });
    expect(await bar.count()).toBe(0);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'New Exchange' }).click();
    await bar.waitFor({ state: 'visible', timeout: 1_200 });
    barShown.resolve();
    await page.waitForURL('**/exchange/new');
    await bar.waitFor({ state: 'detached' });
    await context.close();
  });

  test('the estimate box shows its shape while the guide is asked', async () => {
    const { page, context } = await signedInPerson(app.browser, app.server, CUSTOMER, PHONE);
    // the guide's answer, late: held until the skeleton has shown (at most 1.5 s)
    const skeletonShown = Promise.withResolvers<void>();
    await page.route('**/api/valuation/quote?**', async (route) => {
      await Promise.race([skeletonShown.promise, Bun.sleep(1_500)]);
      await route.continue();
    });
    await page.goto('/exchange/new');
    await page.getByLabel('Condition').selectOption({ label: 'Good (some signs of wear)' });
    await page.getByLabel('Brand').fill('HP');
    await page.getByLabel('Product Name').fill('HP 88A Toner Cartridge');
    await page.getByTestId('estimate-skeleton').waitFor({ state: 'visible', timeout: 1_200 });
    skeletonShown.resolve();
    await page.getByTestId('estimate-skeleton').waitFor({ state: 'detached' });
    expect(await page.getByTestId('live-estimate').textContent()).not.toBe('');
    await context.close();
  });
});
