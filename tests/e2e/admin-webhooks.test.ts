import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { looksRightAndAccessible, markDocument, sameDocument, see, signedInPerson, startServerAndBrowser, stopServerAndBrowser } from '#tests/helpers/browser.ts';
import { submitRequestThroughApi } from '#tests/helpers/requests.ts';
import type { RunningServer } from '#tests/helpers/server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '#tests/helpers/webhook-receiver.ts';
import { ADMIN_EMAIL } from './admin-helpers.ts';

/** The Webhooks page: an admin adds an endpoint (its secret shown once), the server delivers signed events, the admin turns it off and removes it. */

let receiver: WebhookReceiver;
let server: RunningServer;
let browser: Browser;
let admin: Page;

beforeAll(async () => {
  receiver = startWebhookReceiver();
  ({ server, browser } = await startServerAndBrowser({ WEBHOOK_ALLOW_PRIVATE: 'true' }));
  ({ page: admin } = await signedInPerson(browser, server, ADMIN_EMAIL));
}, 120_000);
afterAll(async () => {
  await stopServerAndBrowser({ server, browser });
  receiver?.close();
}, 30_000);

describe('the Webhooks page', () => {
  test('add an endpoint from the dashboard link, copy the secret, see a signed delivery arrive, turn it off, remove it', async () => {
    await admin.goto('/admin');
    await admin.getByRole('link', { name: 'Webhooks' }).click();
    await admin.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await see(admin, 'No webhook endpoints yet.');

    await admin.getByLabel('URL').fill(`${receiver.url}/page`);
    for (const type of ['request.approved', 'request.declined']) await admin.getByRole('checkbox', { name: type }).uncheck();
    await admin.getByRole('button', { name: 'Add endpoint' }).click();
    await see(admin, 'Endpoint added. Copy its signing secret now: it is not shown again.');
    const secret = (await admin.getByTestId('webhook-secret').innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    const endpoint = admin.getByTestId('webhook-endpoint').filter({ hasText: `${receiver.url}/page` });
    await endpoint.getByText('On', { exact: true }).waitFor();
    expect(await endpoint.innerText()).not.toContain('request.approved');
    await looksRightAndAccessible(admin, 'admin-webhooks');

    const customerToken = await server.apiSignIn('asha.rao@example.com');
    const id = await submitRequestThroughApi(server, customerToken, { productName: 'Epson T664 Ink', brand: 'Epson', condition: 'new', description: 'Sealed bottle.' });
    const deadline = Date.now() + 20_000;
    while (receiver.received.length === 0 && Date.now() < deadline) await Bun.sleep(200);
    expect(receiver.received).toHaveLength(1);
    const payload = new Webhook(secret).verify(receiver.received[0]!.body, receiver.received[0]!.headers) as any;
    expect(payload).toMatchObject({ type: 'request.created', data: { id, productName: 'Epson T664 Ink', userEmail: 'asha.rao@example.com' } });

    await admin.reload();
    const delivery = admin.getByTestId('webhook-delivery').filter({ hasText: 'request.created' }).first();
    await delivery.getByText('succeeded', { exact: true }).waitFor();
    expect(await delivery.innerText()).toContain('200');

    await endpoint.getByRole('button', { name: `Turn off ${receiver.url}/page` }).click();
    await endpoint.getByText('Off', { exact: true }).waitFor();
    await see(endpoint, 'Turned off by an admin.');
    await endpoint.getByRole('button', { name: `Remove ${receiver.url}/page` }).click();
    await admin.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await see(admin, 'No webhook endpoints yet.');

    // the way back is followed in the page too
    await markDocument(admin);
    await admin.getByRole('link', { name: 'Back to the Admin Dashboard' }).click();
    await admin.getByRole('heading', { name: 'Admin Dashboard', level: 1 }).waitFor();
    expect(await sameDocument(admin)).toBe(true);
  }, 90_000);
});
