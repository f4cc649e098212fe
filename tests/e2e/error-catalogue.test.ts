import { beforeAll, describe, expect, test } from 'bun:test';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { hydrated, see, signedInPerson, useServerAndBrowser } from '#tests/helpers/browser.ts';
import { png } from '#tests/helpers/images.ts';
import { submitRequestThroughApi } from '#tests/helpers/requests.ts';
import { ADMIN_EMAIL } from './admin-helpers.ts';

/**
 * The §8 error catalogue on screen, each text read where a person would see it, after the server
 * really failed: a table its PostgreSQL cannot find (the pages' loads), or the server itself gone
 * while the pages were open (the customer's submit, upload, shipping and cancel, which then get
 * no answer). The sign-in texts are in sign-in-errors and client-side.
 */

const item = (productName: string) => ({ productName, brand: 'Epson', condition: 'good', description: 'Spare from an office move.' });

describe.skipIf(!process.env.DATABASE_URL)('the pages when a table cannot be read', () => {
  const app = useServerAndBrowser({}, { database: 'postgres' });

  /**
   * Runs `body` while `table` is missing from the server's database (renamed away, as a botched
   * migration would leave it): the server's reads of it really fail, sign-in still works.
   */
  async function withoutTable(table: string, body: () => Promise<void>) {
    const db = new pg.Client({ connectionString: app.server.env.DATABASE_URL });
    await db.connect();
    await db.query(`alter table ${table} rename to ${table}_away`);
    try {
      await body();
    } finally {
      await db.query(`alter table ${table}_away rename to ${table}`);
      await db.end();
    }
  }

  test("the customer's dashboard and list: 'Failed to load data. Please try again later.' and 'Failed to load your exchange requests. Please try again later.'", async () => {
    const { context, page } = await signedInPerson(app.browser, app.server, 'asha.rao@example.com');
    await withoutTable('exchange_requests', async () => {
      await page.goto('/dashboard');
      await see(page, 'Failed to load data. Please try again later.');
      await page.goto('/exchange');
      await see(page, 'Failed to load your exchange requests. Please try again later.');
    });
    // and none once the table is back
    await page.goto('/exchange');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await page.getByText('Failed to load your exchange requests. Please try again later.').count()).toBe(0);
    await context.close();
  }, 120_000);

  test("a failed request list on the dashboard shows only the alert: no '0 Requests', no empty state (§2)", async () => {
    const { context, page } = await signedInPerson(app.browser, app.server, 'rahul.sharma@example.com');
    await withoutTable('exchange_requests', async () => {
      await page.goto('/dashboard');
      await see(page, 'Failed to load data. Please try again later.');
      await page.getByRole('heading', { name: 'Your Dashboard' }).waitFor();
      expect(await page.getByText('0 Requests').count()).toBe(0);
      expect(await page.getByText("You haven't submitted any exchange requests yet.").count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Create Your First Exchange' }).count()).toBe(0);
    });
    // once the list loads again, the card and its empty state are back
    await page.goto('/dashboard');
    await see(page, "You haven't submitted any exchange requests yet.");
    await see(page, '0 Requests');
    await context.close();
  }, 120_000);

  test("a failed profile load: 'Failed to load user profile. Please try again later.' on the error screen, and the session is kept (§8)", async () => {
    const { context, page } = await signedInPerson(app.browser, app.server, 'zoe.dsouza@example.com');
    await withoutTable('sessions', async () => {
      // a tab of the same browser without the wait for hydration: the error screen is a page without scripts
      const tab = await context.newPage();
      const response = await tab.goto('/dashboard');
      await see(tab, 'Failed to load user profile. Please try again later.');
      expect(tab.url()).toEndWith('/dashboard');
      expect(response?.status()).toBe(500);
      await tab.getByTestId('error-screen').getByRole('link', { name: 'Refresh' }).waitFor();
      await tab.close();
    });
    // the same cookie still signs the person in: no new sign-in
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Your Dashboard' }).waitFor();
    await see(page, 'Signed in as zoe.dsouza@example.com');
    expect(page.url()).toEndWith('/dashboard');
    await context.close();
  }, 120_000);

  test("the admin dashboard: 'Failed to load exchange requests', 'Failed to load credit history', 'Failed to load warehouses'", async () => {
    const { context, page } = await signedInPerson(app.browser, app.server, ADMIN_EMAIL);
    for (const [tab, table, text] of [
      [0, 'exchange_requests', 'Failed to load exchange requests'],
      [4, 'credit_ledger', 'Failed to load credit history'],
      [5, 'warehouses', 'Failed to load warehouses'],
    ] as const) {
      await withoutTable(table, async () => {
        await page.goto(`/admin?tab=${tab}`);
        await see(page, text);
      });
    }
    await page.goto('/admin?tab=5');
    await page.getByRole('button', { name: 'Add Warehouse' }).waitFor();
    expect(await page.getByText('Failed to load warehouses').count()).toBe(0);
    await context.close();
  }, 120_000);
});

describe('customer actions when the server is gone', () => {
  // a server of this describe's own: it is stopped for real in the test
  const app = useServerAndBrowser();

  test("submit, upload, shipping and cancel get no answer: 'Failed to submit exchange request', 'Failed to upload image. Please try again.', 'Failed to submit shipping details', 'Failed to delete exchange request'", async () => {
    const email = 'meera.iyer@example.com';
    const token = await app.server.apiSignIn(email);
    const adminToken = await app.server.apiSignIn(ADMIN_EMAIL);
    const warehouses = await app.server.api<{ id: string; isActive: boolean }[]>('GET', '/api/admin/warehouses', adminToken);
    const warehouseId = warehouses.body.find((w) => w.isActive)!.id;
    const toShip = await submitRequestThroughApi(app.server, token, item('Epson C13T6640 Ink'));
    expect((await app.server.api('PUT', `/api/admin/exchange-requests/${toShip}/status`, adminToken, { status: 'approved', warehouseId })).status).toBe(200);
    const toCancel = await submitRequestThroughApi(app.server, token, item('Epson WorkForce Paper Tray'));

    // every page made ready while the server still answers
    const signedIn = await signedInPerson(app.browser, app.server, email);
    // each in a tab of its own, taken over by React before anything is typed or clicked (a click
    // before that is lost: the dialog it should open never opens)
    const tabAt = async (path: string): Promise<Page> => {
      const tab = await signedIn.context.newPage();
      await tab.goto(path);
      await hydrated(tab);
      return tab;
    };
    const submit = await tabAt('/exchange/new');
    await submit.getByLabel('Product Name').fill('Epson Maintenance Box');
    await submit.getByLabel('Brand').fill('Epson');
    await submit.getByLabel('Condition').selectOption({ label: 'Good (some signs of wear)' });
    await submit.getByLabel('Description').fill('Half used, from a WorkForce Pro.');
    await submit.locator('input[type="file"]').setInputFiles({ name: 'box.png', mimeType: 'image/png', buffer: Buffer.from(png(32, 24)) });
    await submit.getByRole('button', { name: 'Remove image 1: box.png' }).waitFor();
    await submit.getByRole('progressbar', { name: 'Uploading box.png' }).waitFor({ state: 'detached' });

    const upload = await tabAt('/exchange/new');

    const shipping = await tabAt(`/exchange/${toShip}`);
    await shipping.getByRole('button', { name: 'Add Details' }).click();
    const dialog = shipping.getByRole('dialog', { name: 'Submit Shipping Details' });
    await dialog.getByLabel('Carrier Name').fill('Blue Dart');
    await dialog.getByLabel('Tracking Number').fill('BD123456789IN');
    await dialog.getByLabel('Shipping Date').fill(new Date().toISOString().slice(0, 10));

    const cancel = await tabAt(`/exchange/${toCancel}`);
    await cancel.getByRole('button', { name: 'Cancel Request' }).click();
    const confirm = cancel.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Yes, Cancel Request' }).waitFor();

    await app.server.stop();

    await submit.getByRole('button', { name: 'Submit Request' }).click();
    await see(submit, 'Failed to submit exchange request');

    await upload.locator('input[type="file"]').setInputFiles({ name: 'tray.png', mimeType: 'image/png', buffer: Buffer.from(png(32, 24)) });
    await see(upload, 'Failed to upload image. Please try again.');

    await dialog.getByRole('button', { name: 'Submit', exact: true }).click();
    await see(shipping, 'Failed to submit shipping details');

    await confirm.getByRole('button', { name: 'Yes, Cancel Request' }).click();
    await see(cancel, 'Failed to delete exchange request');
    // after a failed cancel the confirmation closes (§8)
    await confirm.waitFor({ state: 'detached' });
    await signedIn.context.close();
  }, 180_000);
});
