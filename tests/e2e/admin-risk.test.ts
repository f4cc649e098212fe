import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { requestReference } from '#api/modules/requests/reference.ts';
import { SUBMISSION_REFUSED, duplicatePhotoSentence } from '#api/modules/risk/rules.ts';
import { PHONE, looksRightAndAccessible, markDocument, sameDocument, see, signedInPerson, startServerAndBrowser, stopServerAndBrowser } from '#tests/helpers/browser.ts';
import type { RunningServer } from '#tests/helpers/server.ts';
import { ADMIN_EMAIL, signedInOnce } from './admin-helpers.ts';

/**
 * Risk controls in the browser: an admin blocks a customer on Admin → Risk and that customer's
 * submission shows the neutral sentence; requests of two customers sharing a photo are found with
 * the queue's Flagged filter and read "Photo also used in request SP-…", at 1280 and 390 px.
 */

const PHOTO = readFileSync('api/modules/demo/data/images/fuser-1.jpg');
const OTHER_PHOTO = readFileSync('api/modules/demo/data/images/drum-1.jpg');
const UNSHARED_PHOTO = readFileSync('api/modules/demo/data/images/roller-1.jpg');
const REASON = 'Same serial numbers seen on three accounts';
const BLOCKED = 'zoe.dsouza@example.com';

let server: RunningServer;
let browser: Browser;
/** The admin, signed in once for the file, at the width a test asks for. */
const adminAt = signedInOnce(() => ({ browser, server }));

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser());
}, 120_000);
afterAll(() => stopServerAndBrowser({ server, browser }), 30_000);

/** A request with this photo, made through the API as the customer's browser makes it; returns its id. */
async function submitWithPhoto(email: string, photo: Buffer, productName: string): Promise<string> {
  const token = await server.apiSignIn(email);
  const form = new FormData();
  form.append('file', new File([new Uint8Array(photo)], 'photo.jpg', { type: 'image/jpeg' }));
  const upload = await fetch(`${server.url}/image/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  expect(upload.status).toBe(200);
  const image = (await upload.json()) as { secure_url: string; public_id: string };
  const created = await server.api<{ id: string }>('POST', '/api/exchange', token, {
    productName,
    brand: 'HP',
    description: 'Works, lightly used.',
    condition: 'good',
    images: [{ url: image.secure_url, publicId: image.public_id }],
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

describe('Admin → Risk', () => {
  test('an admin blocks a customer on the page; that customer\'s submission shows the neutral sentence, never the reason; unblocking lets it through', async () => {
    const admin = await adminAt(ADMIN_EMAIL);
    await admin.goto('/admin');
    await markDocument(admin);
    await admin.getByRole('navigation', { name: 'Insights and integrations' }).getByRole('link', { name: 'Risk' }).click();
    await admin.waitForURL('**/admin/risk');
    await admin.getByRole('heading', { name: 'Risk', level: 1 }).waitFor();
    // followed in the page: the form is React's already, and what is typed stays in its state
    expect(await sameDocument(admin)).toBe(true);
    await see(admin, 'Nobody is blocked.');
    await admin.getByLabel('Email or @domain').fill(BLOCKED.toUpperCase());
    await admin.getByLabel('Reason').fill(REASON);
    await admin.getByRole('button', { name: 'Block', exact: true }).click();
    await see(admin, `Blocked ${BLOCKED}. Their new requests are refused.`);
    const entry = admin.getByTestId('block-entry').filter({ hasText: BLOCKED });
    await see(entry, REASON);
    await looksRightAndAccessible(admin, 'admin-risk-desktop');
    // the operator's CLI reads the same list, through the running server
    const listed = await server.cli('risk', 'list', '--json');
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ entry: BLOCKED, reason: REASON, createdBy: ADMIN_EMAIL })]);

    const { page: customer } = await signedInPerson(browser, server, BLOCKED, PHONE);
    await customer.goto('/exchange/new');
    await customer.getByLabel('Product Name').fill('HP 83A Toner');
    await customer.getByLabel('Brand').fill('HP');
    await customer.getByLabel('Condition').selectOption({ label: 'Good (some signs of wear)' });
    await customer.getByLabel('Description').fill('Half used.');
    await customer.locator('input[type="file"]').setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: OTHER_PHOTO });
    await customer.getByText('Add Photos').waitFor();
    await customer.getByRole('button', { name: 'Submit Request' }).click();
    await see(customer, SUBMISSION_REFUSED);
    const screen = await customer.locator('body').innerText();
    expect(screen).not.toContain('serial');
    expect(screen.toLowerCase()).not.toContain('block');
    expect(customer.url()).toEndWith('/exchange/new');
    await looksRightAndAccessible(customer, 'risk-blocked-submission-phone');

    await entry.getByRole('button', { name: `Unblock ${BLOCKED}` }).click();
    await admin.getByRole('alertdialog').getByRole('button', { name: 'Unblock' }).click();
    await see(admin, 'Nobody is blocked.');
    await customer.getByRole('button', { name: 'Submit Request' }).click();
    await customer.waitForURL(/\/exchange\/[0-9a-f-]{36}$/);
    await customer.context().close();
  }, 120_000);

  test('two customers sharing a photo: the Flagged filter keeps their requests, and each detail reads "Photo also used in request SP-…" (1280 and 390 px)', async () => {
    const first = await submitWithPhoto('asha.rao@example.com', PHOTO, 'Flagged Fuser Unit A');
    const second = await submitWithPhoto('meera.iyer@example.com', PHOTO, 'Flagged Fuser Unit B');
    await submitWithPhoto('rahul.sharma@example.com', UNSHARED_PHOTO, 'Unflagged Roller Unit');

    const admin = await adminAt(ADMIN_EMAIL);
    await admin.goto('/admin');
    await see(admin, 'Unflagged Roller Unit');
    await admin.getByTestId('flagged-filter').click();
    await admin.waitForURL(/flagged=1/);
    await see(admin, 'Show all requests');
    await see(admin, 'Flagged Fuser Unit A');
    await see(admin, 'Flagged Fuser Unit B');
    expect(await admin.getByTestId('admin-tab-panel').innerText()).not.toContain('Unflagged Roller Unit');
    await looksRightAndAccessible(admin, 'admin-flagged-filter-desktop');

    await admin.goto(`/admin/exchange/${first}`);
    const flags = admin.getByTestId('risk-flags');
    await see(flags, duplicatePhotoSentence(requestReference(second)));
    await looksRightAndAccessible(admin, 'admin-flagged-detail-desktop');
    await flags.getByRole('link', { name: requestReference(second) }).click();
    await admin.waitForURL(new RegExp(`/admin/exchange/${second}$`));
    await see(admin.getByTestId('risk-flags'), duplicatePhotoSentence(requestReference(first)));

    const phone = await adminAt(ADMIN_EMAIL, PHONE);
    await phone.goto('/admin?flagged=1');
    // below 768 px the queue is a list of cards (the table is hidden)
    await see(phone.getByRole('list', { name: 'Pending Requests' }), 'Flagged Fuser Unit A');
    expect(await phone.getByTestId('admin-tab-panel').innerText()).not.toContain('Unflagged Roller Unit');
    await looksRightAndAccessible(phone, 'admin-flagged-filter-phone');
    await phone.goto(`/admin/exchange/${second}`);
    await see(phone.getByTestId('risk-flags'), duplicatePhotoSentence(requestReference(first)));
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await looksRightAndAccessible(phone, 'admin-flagged-detail-phone');

    // the customer's own page says nothing of it
    const { page: asha } = await signedInPerson(browser, server, 'asha.rao@example.com', PHONE);
    await asha.goto(`/exchange/${first}`);
    await see(asha, 'Flagged Fuser Unit A');
    const seen = await asha.locator('body').innerText();
    expect(seen).not.toContain(requestReference(second));
    expect(seen).not.toContain('Photo also used');
    await asha.context().close();
  }, 150_000);
});
