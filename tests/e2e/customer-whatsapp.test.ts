import { afterAll, describe, expect, test } from 'bun:test';
import { PHONE_INVALID } from '#api/modules/users/rules.ts';
import { WHATSAPP_TEMPLATES } from '#api/modules/whatsapp/rules.ts';
import { hi } from '#src/i18n/hi.ts';
import { looksRightAndAccessible, PHONE, see, signedInPerson, useServerAndBrowser } from '#tests/helpers/browser.ts';
import { startFakeWhatsApp, type FakeWhatsApp } from '#tests/helpers/fake-whatsapp.ts';
import { submitRequestThroughApi } from '#tests/helpers/requests.ts';
import { ADMIN_EMAIL } from './admin-helpers.ts';
import { eventually } from './customer-helpers.ts';

/** Issue 29: a customer on a phone opts in to WhatsApp in Hindi on the dashboard; an approval reaches the fake Cloud API. */
let fake: FakeWhatsApp;
const EMAIL = 'meera.iyer@example.com';

const app = useServerAndBrowser(() => {
  fake = startFakeWhatsApp();
  return fake.env();
});
afterAll(() => fake?.close());

describe('WhatsApp updates on the dashboard', () => {
  test('at 390 px: a bad number is refused naming the field; a 10-digit number, the switch and Hindi are saved; an approval reaches WhatsApp in Hindi', async () => {
    const token = await app.server.apiSignIn(EMAIL);
    const requestId = await submitRequestThroughApi(app.server, token, { productName: 'Laser Toner 12A', brand: 'HP', description: 'Half full.', condition: 'good' });
    const { context, page } = await signedInPerson(app.browser, app.server, EMAIL, PHONE); // lands on /dashboard
    const card = page.getByTestId('whatsapp-settings');
    await see(card, 'WhatsApp updates');

    const number = page.getByLabel('WhatsApp number');
    await number.fill('12345');
    await page.getByRole('switch', { name: 'Send me updates on WhatsApp' }).click();
    await page.getByRole('button', { name: 'Save WhatsApp settings' }).click();
    await see(card, PHONE_INVALID);
    expect(await number.getAttribute('aria-invalid')).toBe('true');

    await number.fill('98765 43210');
    await page.getByLabel('Language').selectOption('hi');
    // saved with the keyboard: focus the button, press Enter
    await page.getByRole('button', { name: 'Save WhatsApp settings' }).focus();
    await page.keyboard.press('Enter');
    await see(card, 'Saved. WhatsApp updates go to +919876543210.');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await looksRightAndAccessible(page, 'customer-phone-whatsapp-settings');

    // the language is the profile's: the page itself now reads Hindi, the card included
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('hi');
    expect(await page.getByLabel(hi['profile.phone']).inputValue()).toBe('+919876543210');
    expect(await page.getByRole('switch', { name: hi['whatsapp.optIn'] }).getAttribute('aria-checked')).toBe('true');
    expect(await page.getByLabel(hi['profile.language']).inputValue()).toBe('hi');
    await context.close();

    const adminToken = await app.server.apiSignIn(ADMIN_EMAIL);
    const warehouses = await app.server.api<{ id: string; isActive: boolean }[]>('GET', '/api/admin/warehouses?pageSize=100', adminToken);
    const warehouseId = warehouses.body.find((w) => w.isActive)!.id;
    expect((await app.server.api('PUT', `/api/admin/exchange-requests/${requestId}/status`, adminToken, { status: 'approved', warehouseId })).status).toBe(200);
    // the background job sends within seconds
    await eventually(() => Promise.resolve(fake.messages.filter((m) => m.to === '919876543210').map((m) => [m.name, m.language])), [[WHATSAPP_TEMPLATES.request_approved.name, 'hi']], 20_000);
    expect(fake.messages.at(-1)!.params[2]).toEndWith(`/exchange/${requestId}`);
  }, 120_000);

  test('at 1280 px, with the keyboard only: a customer who opted in turns the switch off with Space and saves; the profile says opted out', async () => {
    const email = 'asha.rao@example.com';
    const token = await app.server.apiSignIn(email);
    expect((await app.server.api('PUT', '/api/profile', token, { phone: '+44 7911 123456', whatsapp: true })).status).toBe(200);
    const { context, page } = await signedInPerson(app.browser, app.server, email); // lands on /dashboard
    const card = page.getByTestId('whatsapp-settings');
    await see(card, 'WhatsApp updates');
    expect(await page.getByLabel('WhatsApp number').inputValue()).toBe('+447911123456');
    const box = await card.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(576);
    await page.getByLabel('WhatsApp number').focus();
    await page.keyboard.press('Tab');
    const toggle = page.getByRole('switch', { name: 'Send me updates on WhatsApp' });
    expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Space');
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.getByRole('button', { name: 'Save WhatsApp settings' }).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await see(card, 'Saved. You get no WhatsApp updates.');
    expect((await app.server.api('GET', '/api/auth/profile', token)).body).toMatchObject({ phone: '+447911123456', whatsapp: false });
    await looksRightAndAccessible(page, 'customer-desktop-whatsapp-settings');
    await context.close();
  }, 120_000);
});
