import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { looksRightAndAccessible, see, signedInPerson, startServerAndBrowser, stopServerAndBrowser } from '#tests/helpers/browser.ts';
import { warehouseBody } from '#tests/helpers/fixtures.ts';
import { submitRequestThroughApi, submitShippingThroughApi } from '#tests/helpers/requests.ts';
import type { RunningServer } from '#tests/helpers/server.ts';
import { ADMIN_EMAIL, search } from './admin-helpers.ts';

/** Declining, deleting, the warehouse manager's rules, the admin guard and the §8 error alerts, in the browser. */

let server: RunningServer;
let browser: Browser;
let admin: Page;
let adminToken: string;
let customerToken: string;

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser());
  ({ page: admin } = await signedInPerson(browser, server, ADMIN_EMAIL));
  [adminToken, customerToken] = await Promise.all([server.apiSignIn(ADMIN_EMAIL), server.apiSignIn('meera.iyer@example.com')]);
}, 120_000);
afterAll(() => stopServerAndBrowser({ server, browser }), 30_000);

const SEARCH_REQUESTS = 'Search by product name, brand, or user email';
const item = (productName: string) => ({ productName, brand: 'Brother', condition: 'good', description: 'Used drum unit, prints clean.' });

/** A new active warehouse of the calling test's own (another test removes every warehouse). */
async function activeWarehouseId(): Promise<string> {
  const created = await server.api<{ id: string }>('POST', '/api/admin/warehouses', adminToken, warehouseBody({ name: `Review Hub ${crypto.randomUUID().slice(0, 8)}` }));
  expect(created.status).toBe(201);
  return created.body.id;
}

describe('declining a request', () => {
  test('Decline with feedback: the customer sees declined and the feedback', async () => {
    const id = await submitRequestThroughApi(server, customerToken, item('Brother DR-1000 Drum'));
    await admin.goto(`/admin/exchange/${id}`);
    await admin.getByRole('radio', { name: 'Decline' }).click();
    expect(await admin.getByLabel('Warehouse').count()).toBe(0); // only when approving
    // the feedback stops at its limit and says so in the API's sentence
    await admin.getByLabel('Admin Feedback').fill('f'.repeat(10_050));
    expect((await admin.getByLabel('Admin Feedback').inputValue()).length).toBe(10_000);
    await see(admin, 'Admin Feedback can be at most 10000 characters.');
    await admin.getByLabel('Admin Feedback').fill('The drum is scratched, so we cannot resell it.');
    await admin.getByRole('button', { name: 'Submit Decision' }).click();
    // a declined request has no process stepper: the outcome and the feedback the customer got
    await see(admin, 'Feedback sent to the customer: The drum is scratched, so we cannot resell it.');
    expect(await admin.getByRole('heading', { name: 'Exchange Process' }).count()).toBe(0);
    expect(await admin.getByTestId('status-badge').first().textContent()).toBe('Declined');
    expect(await admin.getByTestId('admin-feedback').textContent()).toBe('The drum is scratched, so we cannot resell it.');
    expect(await admin.getByRole('button', { name: 'Mark as Received' }).count()).toBe(0);

    const seen = await server.api('GET', `/api/exchange/${id}`, customerToken);
    expect(seen.body).toMatchObject({ status: 'declined', adminFeedback: 'The drum is scratched, so we cannot resell it.' });
    // and on the customer's own page
    const customer = await signedInPerson(browser, server, 'meera.iyer@example.com');
    await customer.page.goto(`/exchange/${id}`);
    await see(customer.page, 'Your exchange request has been declined. Please check the admin feedback.');
    await see(customer.page, 'The drum is scratched, so we cannot resell it.');
    await customer.context.close();
    // a declined request is in none of the tabs 0-3
    for (const tab of [0, 1, 2, 3]) {
      await admin.goto(`/admin?tab=${tab}&q=${encodeURIComponent('DR-1000')}`);
      await see(admin, 'No exchange requests found in this category');
    }
  }, 60_000);
});

describe('deleting a request', () => {
  test("Delete asks 'Are you sure you want to delete this exchange request? This cannot be undone.' and removes it from every tab", async () => {
    const id = await submitRequestThroughApi(server, customerToken, item('Brother TN-2365 Toner'));
    const approved = await server.api('PUT', `/api/admin/exchange-requests/${id}/status`, adminToken, { status: 'approved', warehouseId: await activeWarehouseId() });
    expect(approved.status).toBe(200);
    await admin.goto('/admin?tab=1&q=TN-2365');
    expect(await admin.getByTestId('admin-request-row').count()).toBe(1);
    await admin.getByRole('link', { name: /^View Brother TN-2365 Toner/ }).click();
    await admin.waitForURL(`**/admin/exchange/${id}`);
    // Delete is under 'More', away from the decision
    await admin.getByRole('button', { name: 'More' }).click();
    await admin.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = admin.getByRole('alertdialog');
    await see(confirm, 'Are you sure you want to delete this exchange request? This cannot be undone.');
    await looksRightAndAccessible(admin, 'admin-delete-request-confirm');
    // keyboard: Escape closes without deleting
    await admin.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect((await server.api('GET', `/api/admin/exchange-requests/${id}`, adminToken)).status).toBe(200);
    await admin.getByRole('button', { name: 'More' }).click();
    await admin.getByRole('menuitem', { name: 'Delete' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await see(admin.getByTestId('flash'), 'Request "Brother TN-2365 Toner" deleted.');
    await admin.waitForURL('**/admin?tab=1');
    for (const tab of [0, 1, 2, 3]) {
      await admin.goto(`/admin?tab=${tab}&q=TN-2365`);
      await see(admin, 'No exchange requests found in this category');
    }
    expect((await server.api('GET', `/api/admin/exchange-requests/${id}`, adminToken)).status).toBe(404);
  }, 60_000);
});

describe('the warehouse manager', () => {
  test("a missing field says 'Please fill in all required fields: {list}'; edit; deactivate; delete with its confirmation", async () => {
    await admin.goto('/admin?tab=5');
    await admin.getByRole('button', { name: 'Add Warehouse' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Add Warehouse' });
    await dialog.getByLabel('Name').fill('Pune Depot');
    await dialog.getByLabel('City').fill('Pune');
    await dialog.getByRole('button', { name: 'Add Warehouse' }).click();
    await see(dialog, 'Please fill in all required fields: Address Line 1, State, Postal Code, Country');
    expect(await dialog.getByLabel('State').getAttribute('aria-invalid')).toBe('true');
    await looksRightAndAccessible(admin, 'admin-warehouse-required-fields');
    await dialog.getByLabel('Address Line 1').fill('Survey 44, Hinjewadi');
    await dialog.getByLabel('State').fill('Maharashtra');
    await dialog.getByLabel('Postal Code').fill('411057');
    await dialog.getByLabel('Country').fill('India');
    await dialog.getByRole('button', { name: 'Add Warehouse' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = admin.getByTestId('warehouse-row').filter({ hasText: 'Pune Depot' });
    await row.waitFor();

    // Edit: every field comes back filled; switching Active off marks it Inactive.
    await row.getByRole('button', { name: 'Edit Pune Depot' }).click();
    const edit = admin.getByRole('dialog', { name: 'Edit Warehouse' });
    expect(await edit.getByLabel('Postal Code').inputValue()).toBe('411057');
    await edit.getByLabel('Contact Person').fill('Anil Patil');
    await edit.getByRole('switch', { name: 'Active' }).click();
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await edit.waitFor({ state: 'detached' });
    await row.getByText('Inactive', { exact: true }).waitFor();
    await see(row, 'Anil Patil');

    // Delete asks first; Cancel keeps it.
    await row.getByRole('button', { name: 'Delete Pune Depot' }).click();
    const confirm = admin.getByRole('alertdialog');
    await see(confirm, 'Are you sure you want to delete this warehouse? This action cannot be undone.');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await row.count()).toBe(1);
    await row.getByRole('button', { name: 'Delete Pune Depot' }).click();
    await admin.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });
  }, 60_000);

  test("a duplicate name fails with 'Failed to save warehouse' and the server's reason", async () => {
    await admin.goto('/admin?tab=5');
    const dialog = admin.getByRole('dialog', { name: 'Add Warehouse' });
    // the test adds the first one itself, so it holds in any order; the second differs only in case
    for (const name of ['Nagpur Returns Hub', 'nagpur returns hub']) {
      await admin.getByRole('button', { name: 'Add Warehouse' }).click();
      for (const [label, value] of [['Name', name], ['Address Line 1', 'Elsewhere 1'], ['City', 'Nagpur'], ['State', 'Maharashtra'], ['Postal Code', '440001'], ['Country', 'India']]) {
        await dialog.getByLabel(label!).fill(value!);
      }
      await dialog.getByRole('button', { name: 'Add Warehouse' }).click();
      if (name === 'Nagpur Returns Hub') await dialog.waitFor({ state: 'detached' });
    }
    const alert = dialog.getByRole('alert');
    await see(alert, 'Failed to save warehouse');
    expect((await alert.textContent())!.length).toBeGreaterThan('Failed to save warehouse'.length);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  }, 60_000);

  test("with no active warehouse, Approve shows a warning linking to /admin?tab=5; with none at all: 'No warehouses have been added yet.'", async () => {
    const id = await submitRequestThroughApi(server, customerToken, item('Brother DK-22205 Label Roll'));
    const list = await server.api<{ id: string }[]>('GET', '/api/admin/warehouses?pageSize=100', adminToken);
    for (const w of list.body) expect((await server.api('DELETE', `/api/admin/warehouses/${w.id}`, adminToken)).status).toBe(200);
    await admin.goto(`/admin/exchange/${id}`);
    await admin.getByRole('radio', { name: 'Approve' }).click();
    const link = admin.getByRole('link', { name: 'Add a warehouse in the Warehouse Manager' });
    expect(await link.getAttribute('href')).toBe('/admin?tab=5');
    expect(await admin.getByLabel('Warehouse').count()).toBe(0);
    await looksRightAndAccessible(admin, 'admin-detail-no-warehouses');
    await link.click();
    await admin.waitForURL('**/admin?tab=5');
    await see(admin, 'No warehouses have been added yet.');
    await looksRightAndAccessible(admin, 'admin-warehouses-empty');
  }, 60_000);
});

describe('the admin guard and the error alerts', () => {
  test('a customer opening /admin or an admin detail page is sent to /dashboard', async () => {
    const { context, page } = await signedInPerson(browser, server, 'zoe.dsouza@example.com');
    await page.goto('/admin?tab=4');
    await page.waitForURL('**/dashboard');
    await page.goto('/admin/exchange/00000000-0000-4000-8000-000000000000');
    await page.waitForURL('**/dashboard');
    const api = await page.evaluate(async () => (await fetch('/api/admin/exchange-requests')).status);
    expect(api).toBe(403);
    await context.close();
  }, 60_000);

  test("an unknown request shows 'Failed to load exchange details' with the server's 'Exchange request not found'", async () => {
    await admin.goto('/admin/exchange/00000000-0000-4000-8000-000000000000');
    const alert = admin.getByRole('alert');
    await see(alert, 'Failed to load exchange details');
    await see(alert, 'Exchange request not found');
    await looksRightAndAccessible(admin, 'admin-detail-not-found');
  }, 60_000);

  test('a page left open while another admin acted shows the §8 texts with the server reason', async () => {
    const warehouse = await server.api<{ id: string }>('POST', '/api/admin/warehouses', adminToken, {
      name: 'Kochi Port Store', addressLine1: 'Willingdon Island', city: 'Kochi', state: 'Kerala', postalCode: '682003', country: 'India',
    });
    const id = await submitRequestThroughApi(server, customerToken, item('Brother LC-3213 Ink Set'));

    // Decision: someone else approved first.
    await admin.goto(`/admin/exchange/${id}`);
    await server.api('PUT', `/api/admin/exchange-requests/${id}/status`, adminToken, { status: 'approved', warehouseId: warehouse.body.id });
    await admin.getByRole('radio', { name: 'Decline' }).click();
    await admin.getByLabel('Admin Feedback').fill('Not what we buy.');
    await admin.getByRole('button', { name: 'Submit Decision' }).click();
    await see(admin.getByRole('alert'), 'Failed to update status');
    await see(admin.getByRole('alert'), 'This request is already approved; it can no longer be declined.');

    // Mark as Received: someone else already did.
    await submitShippingThroughApi(server, customerToken, id);
    await admin.goto(`/admin/exchange/${id}`);
    await server.api('PUT', `/api/admin/exchange-requests/${id}/transit`, adminToken, { transitStatus: 'received' });
    await admin.getByRole('button', { name: 'Mark as Received' }).click();
    let dialog = admin.getByRole('dialog', { name: 'Mark as Received' });
    await dialog.getByLabel('Notes (Optional)').fill('n'.repeat(10_020));
    expect((await dialog.getByLabel('Notes (Optional)').inputValue()).length).toBe(10_000);
    await see(dialog, 'Notes can be at most 10000 characters.');
    await dialog.getByRole('button', { name: 'Mark as Received' }).click();
    await see(dialog.getByRole('alert'), 'Failed to update transit status');
    await see(dialog.getByRole('alert'), 'This item has already been marked as received.');
    await looksRightAndAccessible(admin, 'admin-error-transit');

    // Assign: someone else credited first.
    await admin.goto(`/admin/exchange/${id}`);
    await server.api('PUT', `/api/admin/exchange-requests/${id}/credit`, adminToken, { creditAmount: 100 });
    await admin.getByRole('button', { name: 'Assign Loyalty Points' }).click();
    dialog = admin.getByRole('dialog', { name: 'Assign Loyalty Points' });
    await dialog.getByLabel(/^Credit Amount/).fill('120');
    await dialog.getByRole('button', { name: 'Assign Loyalty Points' }).click();
    await dialog.getByRole('button', { name: 'Give ₹120.00' }).click();
    await see(dialog.getByRole('alert'), 'Failed to assign loyalty points');
    await see(dialog.getByRole('alert'), 'Credit has already been assigned to this request.');

    // Complete, then Delete: the request is gone by then.
    await admin.goto(`/admin/exchange/${id}`);
    await server.api('DELETE', `/api/admin/exchange-requests/${id}`, adminToken);
    await admin.getByRole('button', { name: 'Complete Exchange' }).click();
    dialog = admin.getByRole('dialog', { name: 'Complete Exchange' });
    await dialog.getByRole('button', { name: 'Complete Exchange' }).click();
    await see(dialog.getByRole('alert'), 'Failed to complete exchange');
    await see(dialog.getByRole('alert'), 'Exchange request not found');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await admin.getByRole('button', { name: 'More' }).click();
    await admin.getByRole('menuitem', { name: 'Delete' }).click();
    await admin.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await see(admin.getByRole('alertdialog').getByRole('alert'), 'Failed to delete exchange');

    // Warehouse delete: already deleted elsewhere.
    await admin.goto('/admin?tab=5');
    await server.api('DELETE', `/api/admin/warehouses/${warehouse.body.id}`, adminToken);
    await admin.getByRole('button', { name: 'Delete Kochi Port Store' }).click();
    await admin.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await see(admin.getByRole('alertdialog').getByRole('alert'), 'Failed to delete warehouse');
  }, 90_000);

  test('the search keeps to the URL: a deep link opens the tab with its search', async () => {
    await admin.goto('/admin?tab=2&q=nothing-matches-this');
    expect(await admin.getByRole('link', { name: /^In Transit/ }).getAttribute('aria-current')).toBe('page');
    expect(await admin.getByRole('searchbox', { name: SEARCH_REQUESTS }).inputValue()).toBe('nothing-matches-this');
    await see(admin, 'No exchange requests found in this category');
    await search(admin, SEARCH_REQUESTS, '');
    expect(new URL(admin.url()).search).toBe('?tab=2');
  }, 60_000);
});
