import { beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { EMBEDDED_CARRIER_NAME } from '#api/integrations/carriers/embedded.ts';
import { carriersFor } from '#api/modules/requests/rules.ts';
import type { WarehouseInfo } from '#api/modules/warehouses/model.ts';
import { en } from '#src/i18n/en.ts';
import { hi } from '#src/i18n/hi.ts';
import { t } from '#src/i18n/t.ts';
import { formatDate } from '#src/lib/requests.ts';
import { hydrated, looksRightAndAccessible, PHONE, see, signedInPerson, useServerAndBrowser } from '#tests/helpers/browser.ts';
import { png } from '#tests/helpers/images.ts';
import { submitRequestThroughApi, submitShippingThroughApi } from '#tests/helpers/requests.ts';
import { ADMIN_EMAIL } from './admin-helpers.ts';

/** Issue 29, point 2: a customer whose phone asks for Hindi reads the pages in Hindi, and can switch to English for good. */
const EMAIL = `priya.${process.pid}@example.com`;

const app = useServerAndBrowser();
beforeAll(async () => {
  expect((await app.server.cli('customers', 'add', EMAIL)).code).toBe(0);
}, 180_000);

const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);

/** The scripts the page's document loaded that hold the Hindi texts (found by one of them no English page shows). */
async function scriptsWithHindiTexts(page: Page): Promise<string[]> {
  const scripts = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name).filter((url) => new URL(url).pathname.endsWith('.js')));
  const found: string[] = [];
  for (const url of scripts) if ((await (await fetch(url)).text()).includes(hi['layout.skip'])) found.push(new URL(url).pathname);
  return found;
}

/**
 * The English words a page shows (3 letters or more, in document.body.innerText, which includes
 * open dialogs and screen-reader text) that are not in `allowed`: the words of names, brands,
 * addresses and notes people typed, carriers, and the few that stay as they are in Hindi. Emails
 * (and the card's name made from one) are left out first.
 */
async function englishWords(page: Page, allowed: readonly string[]): Promise<string[]> {
  const text = await page.evaluate(() => document.body.innerText);
  const words = new Set(allowed.flatMap((value) => value.match(/[A-Za-z]{3,}/g) ?? []));
  const emails = text.match(/\S+@\S+/g) ?? [];
  const local = emails.map((email) => email.split('@')[0]!.toUpperCase());
  const rest = [...emails, ...local].reduce((left, value) => left.split(value).join(' '), text);
  return [...new Set((rest.match(/[A-Za-z]{3,}/g) ?? []).filter((word) => !words.has(word)))];
}

/** What stays as it is on a Hindi page: the product's name, the messaging app, the word a customer replies to stop it, the other language's own name, a file type, hi-IN's time zone. */
const ALWAYS_ALLOWED = ['SwapPoints', 'WhatsApp', 'STOP', 'English', 'PDF', 'IST', EMBEDDED_CARRIER_NAME, ...carriersFor('IN')];
const open = async (page: Page, path: string) => {
  await page.goto(path);
  await hydrated(page);
};

describe('the customer pages in Hindi', () => {
  test('at 390 px with Accept-Language hi: sign-in, dashboard, list and new request form in Hindi, ₹ and dates for hi-IN; the header switch to English sticks on the profile', async () => {
    const context = await app.browser.newContext({ baseURL: app.server.url, viewport: PHONE, locale: 'hi-IN' });
    const page = await context.newPage();

    await open(page, '/email-signin');
    expect(await htmlLang(page)).toBe('hi');
    await see(page, hi['signIn.title']);
    await see(page, hi['signIn.who']);
    await page.getByLabel(hi['signIn.emailLabel']).fill(EMAIL);
    await page.getByRole('button', { name: hi['signIn.continue'] }).click();
    await see(page, hi['signIn.sent'].replace('{email}', EMAIL));
    await page.goto(await app.server.signInLink(EMAIL));
    await page.waitForURL(/\/dashboard$/);
    await hydrated(page);
    expect(await htmlLang(page)).toBe('hi');
    await see(page, hi['dashboard.title']);
    await see(page, hi['dashboard.empty']);

    // a credited request, through the API as the shop's admin would
    const token = await app.server.apiSignIn(EMAIL);
    const id = await submitRequestThroughApi(app.server, token, { productName: 'Laser Toner 12A', brand: 'HP', description: 'Half full.', condition: 'good' });
    const adminToken = await app.server.apiSignIn(ADMIN_EMAIL);
    const warehouses = await app.server.api<(WarehouseInfo & { id: string; isActive: boolean })[]>('GET', '/api/admin/warehouses?pageSize=100', adminToken);
    const warehouse = warehouses.body.find((w) => w.isActive)!;
    const warehouseId = warehouse.id;
    expect((await app.server.api('PUT', `/api/admin/exchange-requests/${id}/status`, adminToken, { status: 'approved', warehouseId })).status).toBe(200);
    await submitShippingThroughApi(app.server, token, id);
    expect((await app.server.api('PUT', `/api/admin/exchange-requests/${id}/transit`, adminToken, { transitStatus: 'received' })).status).toBe(200);
    expect((await app.server.api('PUT', `/api/admin/exchange-requests/${id}/credit`, adminToken, { creditAmount: 125000 })).status).toBe(200);

    await open(page, '/dashboard');
    await see(page, hi['credit.cardTitle']);
    expect(await page.getByTestId('credit-amount').innerText()).toBe('₹1,25,000.00');
    const item = page.getByTestId('recent-exchange');
    await see(item, hi['credit.inline'].replace('{amount}', '₹1,25,000.00'));
    await see(item, hi['status.approved']);
    await see(item, hi['line.creditAssigned']);
    await see(page, '1 रिक्वेस्ट');
    const time = item.locator('time');
    const shown = await time.innerText();
    expect(shown).toBe(formatDate((await time.getAttribute('datetime'))!, 'hi-IN', 'Asia/Kolkata'));
    expect(shown).toMatch(/[\u0900-\u097F]/); // the month in Hindi
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await looksRightAndAccessible(page, 'customer-phone-dashboard-hindi');
    // the Hindi texts come as a script of their own, which a page in Hindi loads
    expect(await scriptsWithHindiTexts(page)).toHaveLength(1);
    const allowed = [...ALWAYS_ALLOWED, 'Laser Toner 12A', 'HP', 'Half full.', 'DLV123456 Boxed', warehouse.name, warehouse.city];
    const noEnglish = async (where: string) => expect({ where, english: await englishWords(page, allowed) }).toEqual({ where, english: [] });
    await noEnglish('dashboard, credited');

    // the credited request's own page: credit, balance, stepper, valuation, timeline with the team's and the customer's steps
    await open(page, `/exchange/${id}`);
    await see(page, t('hi', 'next.credited.title', { amount: '₹1,25,000.00' }));
    await see(page, t('hi', 'step.credited', { amount: '₹1,25,000.00' }));
    await see(page, hi['actor.admin'], { exact: false });
    await noEnglish('request, credited');

    // the list and the new request form speak Hindi too
    await open(page, '/exchange');
    await see(page, hi['list.title']);
    await see(page, '1 में से 1-1 रिक्वेस्ट');
    const card = page.getByTestId('exchange-card');
    await see(card, 'क्रेडिट: ₹1,25,000.00');
    await noEnglish('list');
    await see(card, hi['condition.good.short']);
    await see(card, hi['transit.received']);
    expect(await page.getByLabel(hi['list.filter']).locator('option').allInnerTexts()).toEqual([hi['list.allStatuses'], hi['status.pending'], hi['status.approved'], hi['status.declined'], hi['status.completed']]);
    await open(page, '/exchange/new');
    await see(page, hi['new.title']);
    await page.getByRole('button', { name: hi['new.submit'] }).click();
    await see(page, hi['new.fillRequired']);
    await see(page, hi['new.needImage']);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('productName');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await open(page, '/dashboard');

    // the switch offers English, named in English; choosing it saves the profile and reloads
    const toEnglish = page.getByTestId('language-switch');
    expect(await toEnglish.innerText()).toBe('English');
    await Promise.all([page.waitForEvent('load'), toEnglish.click()]);
    await hydrated(page);
    expect(await htmlLang(page)).toBe('en');
    await see(page, en['dashboard.title']);
    await see(page, 'Credit: ₹1,25,000.00');
    expect((await app.server.api<{ language: string }>('GET', '/api/auth/profile', token)).body.language).toBe('en');
    expect(await scriptsWithHindiTexts(page)).toEqual([]); // and a page in English does not

    // it sticks: another browser that asks for Hindi, signed in as the same customer, reads English
    await context.close();
    const other = await app.browser.newContext({ baseURL: app.server.url, viewport: PHONE, locale: 'hi-IN' });
    const again = await other.newPage();
    await open(again, '/email-signin');
    await see(again, hi['signIn.title']);
    await again.getByLabel(hi['signIn.emailLabel']).fill(EMAIL);
    await again.getByRole('button', { name: hi['signIn.continue'] }).click();
    await see(again, hi['signIn.sent'].replace('{email}', EMAIL));
    await again.goto(await app.server.signInLink(EMAIL));
    await again.waitForURL(/\/dashboard$/);
    await hydrated(again);
    expect(await htmlLang(again)).toBe('en');
    await see(again, en['dashboard.title']);
    await other.close();
  }, 150_000);

  test('at 390 px, a Hindi customer reads no English word on a request with an offer, one with a prepaid label and its tracking, a pending one with its cancel dialog, the WhatsApp card and the new request form (the API\'s refusals too)', async () => {
    const email = `meena.${process.pid}@example.com`;
    expect((await app.server.cli('customers', 'add', email)).code).toBe(0);
    const token = await app.server.apiSignIn(email);
    expect((await app.server.api('PUT', '/api/profile', token, { language: 'hi' })).status).toBe(200);
    const adminToken = await app.server.apiSignIn(ADMIN_EMAIL);
    expect((await app.server.api('POST', '/api/admin/valuation/entries', adminToken, { brand: 'HP', model: '88A', name: 'HP 88A Black Toner', baseValue: 1000 })).status).toBe(201);
    const warehouses = await app.server.api<(WarehouseInfo & { id: string; isActive: boolean })[]>('GET', '/api/admin/warehouses?pageSize=100', adminToken);
    const warehouse = warehouses.body.find((w) => w.isActive)!;
    const approve = async (id: string) =>
      expect((await app.server.api('PUT', `/api/admin/exchange-requests/${id}/status`, adminToken, { status: 'approved', warehouseId: warehouse.id })).status).toBe(200);
    const requests = [
      { productName: 'HP 88A Toner Cartridge', brand: 'HP', condition: 'like_new', description: 'Half full.' },
      { productName: 'Canon Fuser Unit', brand: 'Canon', condition: 'good', description: 'Working spare.' },
      { productName: 'Epson Ink Pad', brand: 'Epson', condition: 'fair', description: 'Used once.' },
    ];
    // quoted ₹850, received, offered ₹400 with a reason; approved, waiting to be shipped; pending
    const offered = await submitRequestThroughApi(app.server, token, requests[0]!);
    await approve(offered);
    await submitShippingThroughApi(app.server, token, offered);
    expect((await app.server.api('PUT', `/api/admin/exchange-requests/${offered}/transit`, adminToken, { transitStatus: 'received' })).status).toBe(200);
    const reason = 'Cracked housing, toner low.';
    expect((await app.server.api<{ offer: { status: string } }>('PUT', `/api/admin/exchange-requests/${offered}/credit`, adminToken, { creditAmount: 400, reason })).body.offer.status).toBe('pending');
    const labelled = await submitRequestThroughApi(app.server, token, requests[1]!);
    await approve(labelled);
    const pending = await submitRequestThroughApi(app.server, token, requests[2]!);

    const pickup = { name: 'Meena Kumari', phone: '98400 12345', addressLine1: '22 Anna Salai', city: 'Chennai', state: 'Tamil Nadu' };
    const allowed = [
      ...ALWAYS_ALLOWED,
      ...requests.flatMap((r) => [r.productName, r.brand, r.description]),
      'HP 88A Black Toner',
      reason,
      'DLV123456 Boxed', // the shipping details submitShippingThroughApi sends
      ...[warehouse.name, warehouse.addressLine1, warehouse.addressLine2, warehouse.city, warehouse.state, warehouse.country, warehouse.contactPerson].flatMap((v) => (v ? [v] : [])),
      ...Object.values(pickup),
      'Bengaluru',
    ];
    const { context, page } = await signedInPerson(app.browser, app.server, email, PHONE);
    const noEnglish = async (where: string) => expect({ where, english: await englishWords(page, allowed) }).toEqual({ where, english: [] });
    expect(await htmlLang(page)).toBe('hi');

    // the dashboard: the loyalty card, the WhatsApp card (a refused number in Hindi), Your data
    await see(page, hi['whatsapp.title']);
    await page.getByLabel(hi['profile.phone']).fill('12345');
    await page.getByLabel(hi['whatsapp.optIn']).click();
    await page.getByRole('button', { name: hi['whatsapp.save'] }).click();
    await see(page, hi['api.phoneInvalid']);
    await noEnglish('dashboard');

    // the offer: figures, reason, Decline and its two ways, the return address form
    await page.goto(`/exchange/${offered}`);
    const card = page.getByTestId('offer-card');
    await see(card, hi['offer.title.pending']);
    await see(card.getByTestId('offer-amount'), '₹400');
    await see(page, hi['next.received.offer']);
    await noEnglish('offer');
    await page.getByRole('button', { name: hi['offer.decline'] }).click();
    await page.getByRole('button', { name: hi['offer.declineOffer'] }).click();
    await see(page, hi['offer.chooseWhat']);
    await page.getByLabel(new RegExp(hi['offer.return'])).check();
    await page.getByRole('button', { name: hi['offer.declineOffer'] }).click();
    await see(page, hi['api.returnAddressNeeded']);
    await see(page, `${hi['return.addressLine2']}${hi['offer.optional']}`);
    await noEnglish('offer, declining');
    // sent: the request closes with the API's feedback, shown in Hindi; the shop books the return and the courier collects it
    const home = { name: 'Meena Kumari', addressLine1: '5 Park Street', city: 'Kolkata', state: 'West Bengal', postalCode: '700016', country: 'India' };
    allowed.push(...Object.values(home));
    for (const [field, value] of Object.entries(home)) await page.getByLabel(`${hi[`return.${field as keyof typeof home}`]} *`).fill(value);
    await page.getByRole('button', { name: hi['offer.declineOffer'] }).click();
    await see(page, hi['offer.declinedReturn']);
    await see(page.getByTestId('decline-reason'), t('hi', 'next.declined.reason', { reason: t('hi', 'api.declinedReturn', { amount: '₹400' }) }));
    await see(page.getByTestId('admin-feedback'), t('hi', 'api.declinedReturn', { amount: '₹400' }));
    expect((await app.server.api('POST', `/api/admin/exchange-requests/${offered}/return/book`, adminToken)).status).toBe(201);
    const returnAwb = (await app.server.api<{ offer: { returnShipment: { trackingNumber: string } } }>('GET', `/api/exchange/${offered}`, token)).body.offer.returnShipment.trackingNumber;
    allowed.push(returnAwb);
    expect((await app.server.cli('shipments', 'event', returnAwb, 'picked_up', '--location', 'Bengaluru')).code).toBe(0);
    await page.reload();
    await hydrated(page);
    await see(page.getByTestId('return-parcel-status'), hi['returnTracking.picked_up']);
    await see(page.getByTestId('offer-status'), t('hi', 'offer.returned', { carrier: EMBEDDED_CARRIER_NAME, number: returnAwb }));
    await noEnglish('offer declined, return on its way');

    // a pending request and its cancel dialog
    await page.goto(`/exchange/${pending}`);
    await see(page, hi['next.pending.title']);
    await page.getByRole('button', { name: hi['cancel.button'] }).click();
    await see(page.getByRole('alertdialog'), hi['cancel.title']);
    await noEnglish('pending, cancel dialog');
    await page.getByRole('button', { name: hi['cancel.keep'] }).click();

    // approved: the warehouse, Add Details (its dialog's own message), then a prepaid label (the API refuses a PIN code in Hindi)
    await page.goto(`/exchange/${labelled}`);
    await see(page, hi['next.approved.title']);
    await see(page, hi['warehouse.title']);
    await noEnglish('approved');
    await page.getByRole('button', { name: hi['shipping.add'] }).click();
    const shipping = page.getByRole('dialog');
    await shipping.getByRole('button', { name: hi['shipping.submit'] }).click();
    await see(shipping, hi['shipping.fill']);
    await noEnglish('shipping dialog');
    await shipping.getByRole('button', { name: hi['common.cancel'] }).click();
    await shipping.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: hi['label.get'] }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(hi['pickup.name'], { exact: true }).fill(pickup.name);
    await dialog.getByLabel(hi['pickup.phone']).fill(pickup.phone);
    await dialog.getByLabel(hi['pickup.addressLine1']).fill(pickup.addressLine1);
    await dialog.getByLabel(hi['pickup.city']).fill(pickup.city);
    await dialog.getByLabel(hi['pickup.state']).fill(pickup.state);
    await dialog.getByLabel(hi['pickup.postalCode']).fill('60000');
    await dialog.getByRole('button', { name: hi['label.book'] }).click();
    await see(dialog, hi['api.postalIndia']);
    await noEnglish('prepaid label form');
    await dialog.getByLabel(hi['pickup.postalCode']).fill('600002');
    await dialog.getByRole('button', { name: hi['label.book'] }).click();
    await dialog.waitFor({ state: 'detached' });
    const parcel = page.getByTestId('parcel-card');
    await see(parcel, hi['parcel.waiting']);
    await see(page, hi['next.approved.label']);
    const awb = (await parcel.getByTestId('parcel-awb').innerText()).trim();
    allowed.push(awb);
    await noEnglish('label booked');

    // the courier's steps: the parcel card, the timeline, the details (the pickup's note), the stepper
    expect((await app.server.cli('shipments', 'event', awb, 'picked_up', '--location', 'Chennai')).code).toBe(0);
    expect((await app.server.cli('shipments', 'event', awb, 'delivered', '--location', 'Bengaluru')).code).toBe(0);
    await page.reload();
    await hydrated(page);
    await see(parcel.getByTestId('parcel-status'), hi['tracking.delivered']);
    await see(page.getByTestId('tracking-steps'), hi['tracking.picked_up']);
    await see(page.getByTestId('event-timeline'), hi['event.tracking']);
    await see(page, hi['api.pickedUpNote']);
    await see(page, hi['line.shipped']);
    await noEnglish('tracked');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await looksRightAndAccessible(page, 'customer-phone-request-hindi');

    // the new request form: the live estimate, a length hint at the limit, six photos for five places
    await page.goto('/exchange/new');
    await page.getByLabel(hi['new.productName']).fill(requests[0]!.productName);
    await page.getByLabel(hi['new.brand']).fill('HP');
    await page.getByLabel(hi['new.condition']).selectOption('like_new');
    await see(page, t('hi', 'estimate.credit', { amount: '₹850' }));
    await page.getByLabel(hi['new.description']).fill('क'.repeat(5000));
    await see(page, t('hi', 'field.tooLong', { label: hi['field.description'], max: 5000 }));
    const photos = Array.from({ length: 6 }, (_, i) => ({ name: `photo-${i + 1}.png`, mimeType: 'image/png', buffer: Buffer.from(png(8, 8)) }));
    await page.locator('#product-images').setInputFiles(photos);
    await see(page, t('hi', 'images.tooMany.one', { max: 5, count: 1 }));
    await see(page.getByTestId('images-count'), t('hi', 'images.count', { count: 5, max: 5 }));
    await noEnglish('new request form');
    await context.close();
  }, 180_000);

  test('signed out, the switch keeps the choice in a cookie: an English browser chooses हिन्दी and the sign-in page stays Hindi, the terms and privacy notice too', async () => {
    const context = await app.browser.newContext({ baseURL: app.server.url, viewport: PHONE, locale: 'en-IN' });
    const page = await context.newPage();
    await open(page, '/email-signin');
    expect(await htmlLang(page)).toBe('en');
    await see(page, en['signIn.title']);
    await Promise.all([page.waitForEvent('load'), page.getByTestId('language-switch').click()]);
    await hydrated(page);
    expect(await htmlLang(page)).toBe('hi');
    await see(page, hi['signIn.title']);
    await open(page, '/no-such-page');
    await see(page, hi['notFound.title']);
    // the terms and privacy notice in Hindi too (the shipped translations), never their version line
    for (const [path, heading] of [['/terms', 'सेवा की शर्तें'], ['/privacy', 'गोपनीयता नीति']] as const) {
      await open(page, path);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(heading);
      expect(await page.locator('[data-slot="card-content"]').getAttribute('lang')).toBe('hi');
      expect(await page.getByTestId('legal-english-only').count()).toBe(0);
      expect(await page.evaluate(() => document.body.innerText)).not.toContain('version');
    }
    await context.close();
  }, 60_000);
});
