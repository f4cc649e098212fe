import { describe, expect, test } from 'bun:test';
import { DESKTOP, see, signedInPerson, useServerAndBrowser } from '#tests/helpers/browser.ts';
import { submitRequestThroughApi } from '#tests/helpers/requests.ts';
import { realImages } from './customer-helpers.ts';

const app = useServerAndBrowser({ MAX_OPEN_REQUESTS_PER_CUSTOMER: '2' });

describe('the cap on open requests, on the form', () => {
  test('a customer with MAX_OPEN_REQUESTS_PER_CUSTOMER open requests sees why the next one is refused, and stays on the form', async () => {
    const email = 'meera.iyer@example.com';
    const token = await app.server.apiSignIn(email);
    for (const productName of ['HP 305 Black Ink Cartridge', 'Canon PG-745 Cartridge']) {
      await submitRequestThroughApi(app.server, token, { productName, brand: 'HP', description: 'A spare, box opened.', condition: 'like_new' });
    }
    const { context, page } = await signedInPerson(app.browser, app.server, email, DESKTOP, '/exchange/new');
    await page.getByLabel('Product Name').fill('LaserJet Fuser Unit');
    await page.getByLabel('Brand').fill('Hewlett-Packard');
    await page.getByLabel('Condition').selectOption({ label: 'Very Good (minimal wear)' });
    await page.getByLabel('Description').fill('Fuser from a LaserJet Pro M404, about 20,000 pages.');
    const images = await realImages(page, 'FUSER');
    await page.locator('input[type="file"]').setInputFiles({ name: 'fuser.png', mimeType: 'image/png', buffer: images.png });
    await see(page, '1/5 images');
    await page.getByText('Add Photos').waitFor();
    await page.getByRole('button', { name: 'Submit Request' }).click();
    await see(page, 'You already have 2 open exchange requests. Please wait until one of them is decided or completed before filing another.');
    expect(new URL(page.url()).pathname).toBe('/exchange/new');
    await context.close();
  }, 120_000);
});
