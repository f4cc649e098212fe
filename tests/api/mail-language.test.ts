import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { addCustomer } from '#api/modules/customers/service.ts';
import { MAIL_TEXTS } from '#api/modules/mail/texts.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { createWarehouse, mailsTo, requestAt, signInPerson, uniqueEmail, type Person } from '#tests/helpers/fixtures.ts';

// each case drives requests through several steps
setDefaultTimeout(60_000);

const DEVANAGARI = /[\u0900-\u097F]/;

describe.each(databaseKinds())('mail in the customer\'s language (%s)', (kind) => {
  let t: TestApp;
  let admin: Person;
  let warehouseId: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signInPerson(t, undefined, { admin: true });
    warehouseId = (await createWarehouse(t, admin)).id;
  }, 60_000);
  afterAll(async () => {
    await t.close();
  }, 30_000);

  const customerIn = async (language: 'en' | 'hi') => {
    const customer = await signInPerson(t);
    const saved = await t.request('PUT', '/api/profile', { token: customer.token, body: { language } });
    expect(saved.status).toBe(200);
    return customer;
  };

  test('a customer whose language is Hindi gets every notice of their request in Hindi, ₹ amounts included', async () => {
    const customer = await customerIn('hi');
    await requestAt(t, 'completed', customer, admin, warehouseId, 1250);
    await requestAt(t, 'declined', customer, admin, warehouseId);
    const hi = MAIL_TEXTS.hi;
    const mail = async (kindOf: string) => (await mailsTo(t, customer.email, kindOf))[0]!;

    const approved = await mail('request_approved');
    expect(approved.subject).toBe(hi.approved.subject('HP 305 Black Ink Cartridge'));
    expect(approved.text_body).toContain(hi.approved.body('HP 305 Black Ink Cartridge (HP)'));
    expect(approved.text_body).toContain('कृपया सामान इस पते पर भेजें:');
    expect(approved.text_body).toContain(hi.viewRequest);
    expect((await mail('item_received')).text_body).toContain(hi.received.next);
    const credited = await mail('credit_assigned');
    expect(credited.subject).toBe('आपके HP 305 Black Ink Cartridge के लिए ₹1,250.00 का स्टोर क्रेडिट');
    expect((await mail('exchange_completed')).text_body).toContain('₹1,250.00 का स्टोर क्रेडिट आपकी अगली ख़रीदारी के लिए तैयार है।');
    const declined = await mail('request_declined');
    expect(declined.text_body).toContain(hi.declined.feedback('Not a printer part'));
    expect(declined.html_body).toContain('हमें खेद है');
    // nothing in these mails is left in English but the product, the address and the brand
    for (const m of await mailsTo(t, customer.email)) {
      if (m.kind === 'sign_in') continue;
      expect(m.subject).toMatch(DEVANAGARI);
      expect(m.text_body).not.toContain('View your exchange request');
    }
  });

  test('a customer whose language is English gets the English mails as before', async () => {
    const customer = await customerIn('en');
    await requestAt(t, 'credited', customer, admin, warehouseId, 500);
    const [approved] = await mailsTo(t, customer.email, 'request_approved');
    expect(approved!.subject).toBe('Your exchange request for HP 305 Black Ink Cartridge is approved');
    const [credited] = await mailsTo(t, customer.email, 'credit_assigned');
    expect(credited!.subject).toBe('₹500.00 store credit for your HP 305 Black Ink Cartridge');
    expect(credited!.text_body).not.toMatch(DEVANAGARI);
  });

  test('a first sign-in from a Hindi browser: the link comes in Hindi and the new customer starts in Hindi', async () => {
    const email = uniqueEmail('hindi');
    await addCustomer(t.ctx.db, { email });
    const headers = { 'accept-language': 'hi-IN,hi;q=0.9,en;q=0.8' };
    const login = await t.request('POST', '/api/auth/login', { body: { email }, headers });
    expect(login.status).toBe(202);
    const [link] = await mailsTo(t, email, 'sign_in');
    expect(link!.subject).toBe(MAIL_TEXTS.hi.signIn.subject);
    const token = new URL(await t.lastSignInLink(email)).searchParams.get('token');
    const verify = await t.request('POST', '/api/auth/verify-email', { body: { email, token }, headers });
    expect(verify.status).toBe(200);
    const profile = await t.request('GET', '/api/auth/profile', { token: verify.body.sessionToken });
    expect(profile.body.language).toBe('hi');
  });

  test('a saved language wins over the browser: an English customer on a Hindi browser gets an English link and stays English', async () => {
    const customer = await customerIn('en');
    const headers = { 'accept-language': 'hi' };
    expect((await t.request('POST', '/api/auth/login', { body: { email: customer.email }, headers })).status).toBe(202);
    const links = await mailsTo(t, customer.email, 'sign_in');
    expect(links.at(-1)!.subject).toBe('Your SwapPoints sign-in link');
    const token = new URL(await t.lastSignInLink(customer.email)).searchParams.get('token');
    const verify = await t.request('POST', '/api/auth/verify-email', { body: { email: customer.email, token }, headers });
    expect(verify.status).toBe(200);
    expect((await t.request('GET', '/api/auth/profile', { token: customer.token })).body.language).toBe('en');
  });

  test('the language cookie (a choice made in the header while signed out) wins over Accept-Language for a new customer', async () => {
    const email = uniqueEmail('chose-en');
    await addCustomer(t.ctx.db, { email });
    const headers = { 'accept-language': 'hi', cookie: 'swappoints_lang=en' };
    expect((await t.request('POST', '/api/auth/login', { body: { email }, headers })).status).toBe(202);
    expect((await mailsTo(t, email, 'sign_in'))[0]!.subject).toBe('Your SwapPoints sign-in link');
  });
});
