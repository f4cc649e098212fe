import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { looksRightAndAccessible, newPerson, see, signInThroughPages, startServerAndBrowser, stopServerAndBrowser } from '#tests/helpers/browser.ts';
import type { RunningServer } from '#tests/helpers/server.ts';
import { ADMIN_EMAIL, dashboardCredit, openTab, search, submitRequestThroughPages, submitShippingThroughPages, tabCount } from './admin-helpers.ts';

/**
 * The whole trade-in with two people in two browsers: the customer asks and ships on the customer
 * pages; the admin reviews, receives, credits and completes on the admin pages (spec §2 Admin
 * dashboard, Admin detail, Credit history, Warehouse manager).
 */

let server: RunningServer;
let browser: Browser;

const SEARCH_REQUESTS = 'Search by product name, brand, or user email';

async function signedIn(email: string): Promise<Page> {
  const { page } = await newPerson(browser, server);
  page.on('pageerror', (error) => console.error(`page error (${email}):`, error.message));
  await signInThroughPages(page, server, email);
  await page.waitForURL(/\/(dashboard|admin)$/);
  return page;
}

// The browser journey on the embedded database only (it ran on PostgreSQL too): every rule it
// passes through is tested on both engines through the API: tests/api/exchange-admin (q, tab counts,
// approve, receive, credit, complete), journeys-requests (warehouses) and credit-ledger; the
// built server's pages on PostgreSQL are read by error-catalogue.test.ts.
describe.each(['pglite'] as const)('on %s', (database) => {
  beforeAll(async () => {
    ({ server, browser } = await startServerAndBrowser({}, { database }));
  }, 120_000);
  afterAll(() => stopServerAndBrowser({ server, browser }), 30_000);

  describe('the admin pages through a whole trade-in', () => {
    test('asked, badged, searched, approved with a new warehouse, shipped, received, credited 250, completed; Success in the credit history; ₹250.00 more for the customer', async () => {
      const customer = await signedIn('asha.rao@example.com');
      const admin = await signedIn(ADMIN_EMAIL);
      const before = await dashboardCredit(customer);

      // Nothing pending yet: the badge is hidden at zero.
      await admin.goto('/admin');
      await admin.getByRole('heading', { level: 1, name: 'Admin Dashboard' }).waitFor();
      expect(await tabCount(admin, 0)).toBeNull();
      await see(admin, 'No exchange requests found in this category');

      const id = await submitRequestThroughPages(customer, {
        productName: 'Kyocera TK-1175 Toner Kit',
        brand: 'Kyocera',
        condition: 'like_new',
        conditionLabel: 'Like New (without tags)',
        description: 'Spare kit from an ECOSYS M2640idw, still sealed.',
      });

      // Refresh shows the new request and its badge.
      await admin.getByRole('button', { name: 'Refresh' }).click();
      await admin.getByTestId('admin-request-row').first().waitFor();
      expect(await tabCount(admin, 0)).toBe(1);
      const row = admin.getByTestId('admin-request-row');
      expect(await row.count()).toBe(1);
      const cells = await row.getByRole('cell').allTextContents();
      expect(cells.slice(0, 5)).toEqual(['Kyocera TK-1175 Toner Kit', 'Kyocera', 'Like New', 'asha.rao@example.com', 'Pending']);
      expect(await row.getByRole('img', { name: 'Kyocera TK-1175 Toner Kit' }).count()).toBe(1);

      // The search is in the URL and matches product, brand or email, case-insensitively.
      await search(admin, SEARCH_REQUESTS, 'KYOCERA');
      expect(await admin.getByTestId('admin-request-row').count()).toBe(1);
      await search(admin, SEARCH_REQUESTS, 'asha.rao@');
      expect(await admin.getByTestId('admin-request-row').count()).toBe(1);
      await search(admin, SEARCH_REQUESTS, 'no such toner');
      await see(admin, 'No exchange requests found in this category');
      // the badge counts the whole queue, whatever the search
      expect(await tabCount(admin, 0)).toBe(1);
      await search(admin, SEARCH_REQUESTS, 'tk-1175');
      await admin.reload();
      expect(await admin.getByRole('searchbox', { name: SEARCH_REQUESTS }).inputValue()).toBe('tk-1175');
      expect(await admin.getByTestId('admin-request-row').count()).toBe(1);
      await looksRightAndAccessible(admin, 'admin-pending-search');

      // A warehouse made in the Warehouse Manager.
      await openTab(admin, 'Warehouse Manager');
      expect(new URL(admin.url()).search).toBe('?tab=5');
      await admin.getByRole('button', { name: 'Add Warehouse' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Add Warehouse' });
      await dialog.getByLabel('Name').fill('Chennai Intake Centre');
      await dialog.getByLabel('Address Line 1').fill('12 Ambattur Industrial Estate');
      await dialog.getByLabel('City').fill('Chennai');
      await dialog.getByLabel('State').fill('Tamil Nadu');
      await dialog.getByLabel('Postal Code').fill('600058');
      await dialog.getByLabel('Country').fill('India');
      await dialog.getByLabel('Contact Person').fill('Lakshmi Narayanan');
      await dialog.getByLabel('Contact Phone').fill('+91 44 2625 0000');
      expect(await dialog.getByRole('switch', { name: 'Active' }).getAttribute('aria-checked')).toBe('true');
      await looksRightAndAccessible(admin, 'admin-warehouse-add-dialog');
      await dialog.getByRole('button', { name: 'Add Warehouse' }).click();
      await dialog.waitFor({ state: 'detached' });
      const warehouseRow = admin.getByTestId('warehouse-row').filter({ hasText: 'Chennai Intake Centre' });
      await warehouseRow.waitFor();
      expect(await warehouseRow.getByText('Active', { exact: true }).count()).toBe(1);

      // Review: Submit Decision waits for a choice; Approve needs a warehouse.
      await admin.goto('/admin?q=kyocera');
      await admin.getByRole('link', { name: /^View Kyocera TK-1175 Toner Kit/ }).click();
      await admin.waitForURL(`**/admin/exchange/${id}`);
      await see(admin, 'This exchange request is waiting for your review.');
      const submit = admin.getByRole('button', { name: 'Submit Decision' });
      expect(await submit.isDisabled()).toBe(true);
      expect(await admin.getByLabel('Warehouse').count()).toBe(0);
      await admin.getByRole('radio', { name: 'Approve' }).click();
      expect(await submit.isDisabled()).toBe(false);
      const options = await admin.getByLabel('Warehouse').locator('option').allTextContents();
      expect(options).toContain('Chennai Intake Centre - Chennai, Tamil Nadu');
      expect(options.some((o) => o.startsWith('Mumbai Overflow'))).toBe(false); // inactive
      await see(admin, 'Required for approval');
      await submit.click();
      await see(admin, 'Please select a warehouse for shipping the product');
      await admin.getByLabel('Warehouse').selectOption({ label: 'Chennai Intake Centre - Chennai, Tamil Nadu' });
      await admin.getByLabel('Admin Feedback').fill('Sealed kits are welcome. Please ship it to Chennai.');
      await looksRightAndAccessible(admin, 'admin-detail-pending');
      await submit.click();
      await see(admin, 'This request has been approved. Waiting for customer to submit shipping details.');
      const shipTo = admin.getByTestId('warehouse-address');
      await see(shipTo, 'Customer Ships To This Address');
      await see(shipTo, 'Chennai Intake Centre');
      await looksRightAndAccessible(admin, 'admin-detail-approved');
      // the customer's photo opens in the full-screen viewer
      await admin.getByRole('button', { name: 'View image 1 of 1 full screen' }).click();
      await see(admin.getByRole('dialog'), 'Image 1 of 1');
      await admin.keyboard.press('Escape');
      await admin.getByRole('dialog').waitFor({ state: 'detached' });

      // Back lands on the tab the request is now in.
      await admin.getByRole('link', { name: 'Back' }).click();
      await admin.waitForURL('**/admin?tab=1');
      await admin.getByRole('heading', { level: 2, name: 'Approved (Awaiting Shipping)' }).waitFor();
      expect(await tabCount(admin, 0)).toBeNull();
      expect(await tabCount(admin, 1)).toBe(1);
      expect(await admin.getByTestId('admin-request-row').getByTestId('transit-chip').textContent()).toBe('Awaiting Shipping');

      // The customer ships; the admin finds it under In Transit.
      await customer.goto(`/exchange/${id}`);
      await see(customer, 'Your Exchange Request is Approved! Now add the shipping details.');
      await see(customer.getByTestId('warehouse-address'), 'Ship To This Address');
      await see(customer.getByTestId('warehouse-address'), 'Chennai Intake Centre');
      await submitShippingThroughPages(customer, id, 'Blue Dart', 'BD99887766');
      await admin.getByRole('button', { name: 'Refresh' }).click();
      await admin.waitForFunction(() => !document.querySelector('[data-testid="tab-count-1"]'));
      expect(await tabCount(admin, 2)).toBe(1);
      await openTab(admin, 'In Transit');
      expect(await admin.getByTestId('admin-request-row').getByTestId('transit-chip').textContent()).toBe('Shipped');
      await looksRightAndAccessible(admin, 'admin-in-transit');
      await admin.getByRole('link', { name: /^View Kyocera/ }).click();
      await admin.waitForURL(`**/admin/exchange/${id}`);
      expect(await admin.getByRole('button', { name: 'Assign Loyalty Points' }).isDisabled()).toBe(true);
      expect(await admin.getByRole('button', { name: 'Complete Exchange' }).isDisabled()).toBe(true);
      await see(admin, 'You must assign credit before completing the exchange');

      // Mark as Received, with a note.
      await admin.getByRole('button', { name: 'Mark as Received' }).click();
      const received = admin.getByRole('dialog', { name: 'Mark as Received' });
      await received.getByLabel('Notes (Optional)').fill('Seal intact.');
      await received.getByRole('button', { name: 'Mark as Received' }).click();
      await received.waitFor({ state: 'detached' });
      await admin.getByTestId('request-details').getByText('Received', { exact: true }).waitFor();
      expect(await admin.getByRole('button', { name: 'Mark as Received' }).count()).toBe(0);

      // Assign Loyalty Points: a whole number; an empty amount is refused on the page.
      await admin.getByRole('button', { name: 'Assign Loyalty Points' }).click();
      const credit = admin.getByRole('dialog', { name: 'Assign Loyalty Points' });
      const amount = credit.getByLabel(/^Credit Amount/);
      expect(await amount.getAttribute('min')).toBe('0');
      expect(await amount.getAttribute('step')).toBe('1');
      await credit.getByRole('button', { name: 'Assign Loyalty Points' }).click();
      await see(credit, 'Please enter a valid credit amount');
      await amount.fill('250');
      await credit.getByLabel('Note (Optional)').fill('Full kit, sealed.');
      await credit.getByRole('button', { name: 'Assign Loyalty Points' }).click();
      // first the rounded amount and who gets it
      await see(credit.getByTestId('credit-confirmation'), 'Give ₹250.00 store credit to', { exact: false });
      await see(credit.getByTestId('credit-confirmation'), 'asha.rao@example.com', { exact: false });
      await looksRightAndAccessible(admin, 'admin-assign-credit-dialog');
      await credit.getByRole('button', { name: 'Give ₹250.00' }).click();
      await credit.waitFor({ state: 'detached' });
      await admin.getByTestId('assigned-points').filter({ hasText: '₹250.00' }).waitFor();
      expect(await admin.getByRole('button', { name: 'Assign Loyalty Points' }).count()).toBe(0);

      // Complete Exchange.
      await admin.getByRole('button', { name: 'Complete Exchange' }).click();
      const complete = admin.getByRole('dialog', { name: 'Complete Exchange' });
      await complete.getByRole('button', { name: 'Complete Exchange' }).click();
      await complete.waitFor({ state: 'detached' });
      await see(admin, 'Exchange Completed Successfully');
      expect(await admin.getByTestId('completed-amount').textContent()).toBe('₹250.00');
      const timeline = await admin.getByTestId('event-timeline').locator('li > p:first-of-type').allTextContents();
      expect(timeline).toEqual(['Request submitted', 'Request approved', 'Shipping details submitted', 'Item received', 'Credit assigned', 'Exchange completed']);
      await looksRightAndAccessible(admin, 'admin-detail-completed');

      // Credit History: the row is a Success, and found by its exchange ID.
      await admin.goto('/admin?tab=4');
      await search(admin, 'Search by user ID or exchange ID', id.slice(0, 13));
      const history = admin.getByTestId('credit-history-row');
      expect(await history.count()).toBe(1);
      const historyCells = await history.getByRole('cell').allTextContents();
      expect([await history.getByTestId('credit-customer').textContent(), ...historyCells.slice(1, 2), ...historyCells.slice(3, 6)]).toEqual(['asha.rao@example.com', 'Kyocera TK-1175 Toner Kit', 'Exchange Credit', '₹250.00', 'Success']);
      expect(await history.getByTestId('credit-exchange-id').textContent()).toBe(id);
      await looksRightAndAccessible(admin, 'admin-credit-history');

      // The customer's dashboard shows ₹250.00 more.
      expect(await dashboardCredit(customer)).toBe(before + 250);
    }, 180_000);
  });
});
