import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { runDeadlines } from '#api/modules/deadlines/service.ts';
import { recordTrackingEvents } from '#api/modules/shipments/tracking.ts';
import { MAIL_TEXTS } from '#api/modules/mail/texts.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { createWarehouse, mailsTo, requestAt, signInPerson, type Person } from '#tests/helpers/fixtures.ts';

// each case drives requests through several steps
setDefaultTimeout(60_000);

const DAY = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY);
const DEVANAGARI = /[\u0900-\u097F]/;
const LOCALES = { en: 'en-IN', hi: 'hi-IN' } as const;
const hi = MAIL_TEXTS.hi;

/** English words of the English mails, none of which may reach a Hindi customer. */
const ENGLISH = ['View your exchange request', 'Answer the offer', 'Download your label', 'tracking number', 'store credit', 'Please', 'We '];

/**
 * The mails added with revised offers, deadlines and prepaid labels are written in the customer's
 * saved language too, through the real flows that queue them: the offer, its reminder, the ship
 * reminder, the request closed for not being shipped, the return of a declined offer's item, and the
 * label ready, picked up and delivered mails. Amounts and dates are written for en-IN or hi-IN.
 */
describe.each(databaseKinds())("the offer, deadline and parcel mails in the customer's language (%s)", (kind) => {
  let t: TestApp;
  let admin: Person;
  let warehouseId: string;

  const as = (who: Person, method: string, path: string, body?: unknown) => t.request(method, path, { token: who.token, body });
  /** The day DATE falls on in the shop's calendar, as a reader of LANG reads it. */
  const day = (date: Date | string, lang: 'en' | 'hi') =>
    new Intl.DateTimeFormat(LOCALES[lang], { day: 'numeric', month: 'long', year: 'numeric', timeZone: t.ctx.settings.shopTimeZone }).format(new Date(date));
  const lastMail = async (who: Person, mailKind: string) => {
    const mails = await mailsTo(t, who.email, mailKind);
    expect({ mailKind, queued: mails.length }).toEqual({ mailKind, queued: 1 });
    return mails[0]!;
  };
  /** A Hindi mail: Devanagari in its subject, and none of the English mails' words anywhere. */
  const expectHindi = (mail: { subject: string; text_body: string; html_body: string | null }) => {
    expect(mail.subject).toMatch(DEVANAGARI);
    for (const english of ENGLISH) {
      expect({ english, inText: mail.text_body.includes(english), inHtml: mail.html_body!.includes(english) }).toEqual({ english, inText: false, inHtml: false });
    }
  };

  async function customerIn(language: 'en' | 'hi'): Promise<Person> {
    const customer = await signInPerson(t);
    expect((await as(customer, 'PUT', '/api/profile', { language })).status).toBe(200);
    return customer;
  }

  /** A request quoted ₹850 (HP 88A, like new), received, with an offer of ₹400: the offer's answer date. */
  async function offered(customer: Person): Promise<{ id: string; respondBy: string }> {
    const id = await requestAt(t, 'received', customer, admin, warehouseId, 0, { brand: 'HP', productName: 'HP 88A Toner', condition: 'like_new' });
    const res = await as(admin, 'PUT', `/api/admin/exchange-requests/${id}/credit`, { creditAmount: 400, reason: 'Cracked drum housing' });
    expect([res.status, res.body.offer?.status]).toEqual([200, 'pending']);
    return { id, respondBy: res.body.offer.respondBy };
  }

  beforeAll(async () => {
    t = await createTestApp(kind, { CARRIER: 'embedded' });
    admin = await signInPerson(t, 'offers.language@swappoints.example', { admin: true });
    warehouseId = (await createWarehouse(t, admin)).id;
    expect((await as(admin, 'POST', '/api/admin/valuation/entries', { brand: 'HP', model: '88A', name: 'HP 88A Black Toner', baseValue: 1000 })).status).toBe(201);
  });
  afterAll(() => t.close());

  test('a revised offer, its reminder and the return of the declined item: Hindi for a Hindi customer, with the date in hi-IN', async () => {
    const customer = await customerIn('hi');
    const { id, respondBy } = await offered(customer);
    const by = day(respondBy, 'hi');
    expect(by).toMatch(DEVANAGARI);

    const offer = await lastMail(customer, 'offer_made');
    expect(offer.subject).toBe(hi.offer.subject('HP 88A Toner', '₹400'));
    expect(offer.subject).toBe('आपके HP 88A Toner के लिए हमारा ऑफ़र: ₹400');
    expect(offer.text_body).toContain(hi.offer.body('HP 88A Toner (HP)', '₹850', '₹400'));
    expect(offer.text_body).toContain(hi.offer.reason('Cracked drum housing'));
    expect(offer.text_body).toContain(hi.offer.answer(by));
    expect(offer.text_body).toContain(`अगर ${by} तक हमें आपका जवाब नहीं मिलता, तो ऑफ़र स्वीकार माना जाएगा और ₹400 आपके अकाउंट में क्रेडिट कर दिए जाएँगे।`);
    expect(offer.text_body).toContain(`${hi.offer.action}: http://localhost:3000/exchange/${id}`);
    expect(offer.html_body).toContain(hi.offer.action);
    expectHindi(offer);

    await runDeadlines(t.ctx, { asOf: inDays(5.5) });
    const reminder = await lastMail(customer, 'offer_reminder');
    expect(reminder.subject).toBe(hi.offerReminder.subject('HP 88A Toner', by));
    expect(reminder.text_body).toContain(hi.offerReminder.body('₹400', 'HP 88A Toner (HP)'));
    expect(reminder.text_body).toContain(hi.offer.noAnswer(by, '₹400'));
    expectHindi(reminder);
    // the admins' timeline stays English
    const events = (await as(admin, 'GET', `/api/admin/exchange-requests/${id}`)).body.events as { type: string; note: string }[];
    expect(events.filter((e) => e.type === 'reminded').map((e) => e.note)).toEqual([`Reminded to answer the offer by ${day(respondBy, 'en')}`]);

    const address = { name: 'Asha Rao', addressLine1: '14 MG Road', city: 'Bengaluru', state: 'Karnataka', postalCode: '560001', country: 'India', phone: '+91 98450 00000' };
    expect((await as(customer, 'POST', `/api/exchange/${id}/offer/decline`, { choice: 'return', address })).status).toBe(200);
    expect((await as(admin, 'POST', `/api/admin/exchange-requests/${id}/return`, { carrierName: 'Blue Dart', trackingNumber: 'BD445566' })).status).toBe(200);
    const back = await lastMail(customer, 'return_shipped');
    expect(back.subject).toBe(hi.returnShipped.subject('HP 88A Toner'));
    expect(back.text_body).toContain('हमने आपका HP 88A Toner (HP) Blue Dart से आपको वापस भेज दिया है, ट्रैकिंग नंबर BD445566।');
    expect(back.text_body).toContain(`${hi.viewRequest}: http://localhost:3000/exchange/${id}`);
    expectHindi(back);
  });

  test('the same offer, reminder and return mails stay English, word for word, for an English customer', async () => {
    const customer = await customerIn('en');
    const { id, respondBy } = await offered(customer);
    const by = day(respondBy, 'en');
    expect(by).toMatch(/^\d{1,2} [A-Z][a-z]+ \d{4}$/);

    const offer = await lastMail(customer, 'offer_made');
    expect(offer.subject).toBe('Our offer for your HP 88A Toner: ₹400');
    expect(offer.text_body).toBe(
      [
        'We have inspected your HP 88A Toner (HP). You were quoted ₹850 when you submitted it; after inspection we can offer ₹400 in store credit.',
        'Why the offer is below the quote: Cracked drum housing',
        `Please accept or decline the offer on your request page by ${by}. If you decline, we send the item back to you free of charge or recycle it, as you choose.`,
        `If we have no answer from you by ${by}, the offer is accepted and ₹400 is credited to your account.`,
        `Answer the offer: http://localhost:3000/exchange/${id}`,
        '— SwapPoints',
      ].join('\n\n'),
    );

    await runDeadlines(t.ctx, { asOf: inDays(5.5) });
    const reminder = await lastMail(customer, 'offer_reminder');
    expect(reminder.subject).toBe(`Reminder: our offer for your HP 88A Toner is accepted on ${by} without an answer`);
    expect(reminder.text_body).toStartWith(
      `We are still waiting for your answer to our offer of ₹400 for your HP 88A Toner (HP).\n\nIf we have no answer from you by ${by}, the offer is accepted and ₹400 is credited to your account.`,
    );
    expect(reminder.text_body).not.toMatch(DEVANAGARI);

    const address = { name: 'Ravi Kumar', addressLine1: '2 Park Street', city: 'Kolkata', state: 'West Bengal', postalCode: '700016', country: 'India', phone: '+91 98300 00000' };
    expect((await as(customer, 'POST', `/api/exchange/${id}/offer/decline`, { choice: 'return', address })).status).toBe(200);
    expect((await as(admin, 'POST', `/api/admin/exchange-requests/${id}/return`, { carrierName: 'Blue Dart', trackingNumber: 'BD778899' })).status).toBe(200);
    const back = await lastMail(customer, 'return_shipped');
    expect(back.subject).toBe('Your HP 88A Toner is on its way back to you');
    expect(back.text_body).toStartWith('We have sent your HP 88A Toner (HP) back to you with Blue Dart, tracking number BD778899.\n\nView your exchange request: ');
  });

  test('a request not shipped: the ship reminder and the closing mail in each customer language, the date in its locale', async () => {
    const hindi = await customerIn('hi');
    const english = await customerIn('en');
    const hiId = await requestAt(t, 'approved', hindi, admin, warehouseId);
    const enId = await requestAt(t, 'approved', english, admin, warehouseId);
    const { shipByDays } = t.ctx.settings;
    const deadlineOf = async (id: string) => {
      const row = await t.ctx.db.selectFrom('exchange_requests').select('decided_at').where('id', '=', id).executeTakeFirstOrThrow();
      return new Date(new Date(row.decided_at!).getTime() + shipByDays * DAY);
    };

    await runDeadlines(t.ctx, { asOf: inDays(14.1) });
    const hiBy = day(await deadlineOf(hiId), 'hi');
    expect(hiBy).toMatch(DEVANAGARI);
    const hiReminder = await lastMail(hindi, 'ship_reminder');
    expect(hiReminder.subject).toBe(`कृपया अपना HP 305 Black Ink Cartridge ${hiBy} तक भेज दें`);
    expect(hiReminder.text_body).toContain(hi.shipReminder.body('HP 305 Black Ink Cartridge (HP)'));
    expect(hiReminder.text_body).toContain(hi.shipReminder.deadline(hiBy));
    expectHindi(hiReminder);
    const enBy = day(await deadlineOf(enId), 'en');
    const enReminder = await lastMail(english, 'ship_reminder');
    expect(enReminder.subject).toBe(`Please ship your HP 305 Black Ink Cartridge by ${enBy}`);
    expect(enReminder.text_body).toStartWith(
      `Your exchange request for HP 305 Black Ink Cartridge (HP) is approved, but we have no shipping details for it yet.\n\nPlease ship the item and add the carrier and tracking number on your request page by ${enBy}. A request not shipped by then is closed; you can submit it again afterwards.`,
    );

    await runDeadlines(t.ctx, { asOf: inDays(shipByDays + 1) });
    const hiClosed = await lastMail(hindi, 'request_declined');
    expect(hiClosed.text_body).toContain(hi.declined.feedback(`${shipByDays} दिनों के भीतर नहीं भेजा गया`));
    expect(hiClosed.text_body).not.toContain('Not shipped');
    expectHindi(hiClosed);
    expect((await lastMail(english, 'request_declined')).text_body).toContain(`Our team's feedback: Not shipped within ${shipByDays} days`);
    // the request keeps the English reason the admins read
    expect((await as(hindi, 'GET', `/api/exchange/${hiId}`)).body.adminFeedback).toBe(`Not shipped within ${shipByDays} days`);
  });

  test('a prepaid label: label ready, picked up and delivered in Hindi for a Hindi customer and in English for an English one', async () => {
    const label = async (customer: Person) => {
      const id = await requestAt(t, 'approved', customer, admin, warehouseId);
      const res = await as(customer, 'POST', `/api/exchange/${id}/label`, { name: 'Asha Rao', phone: '98450 12345', addressLine1: '14 MG Road', city: 'Bengaluru', state: 'Karnataka', postalCode: '560001' });
      expect(res.status).toBe(201);
      const awb = res.body.trackingNumber as string;
      await recordTrackingEvents(t.ctx, 'embedded', [{ trackingNumber: awb, status: 'picked_up', at: new Date(), eventKey: `${awb}-pickup`, description: null, location: 'Bengaluru' }]);
      await recordTrackingEvents(t.ctx, 'embedded', [{ trackingNumber: awb, status: 'delivered', at: new Date(), eventKey: `${awb}-delivered`, description: null, location: 'Pune' }]);
      return { id, awb, carrier: res.body.carrier as string };
    };

    const hindi = await customerIn('hi');
    const h = await label(hindi);
    const ready = await lastMail(hindi, 'label_ready');
    expect(ready.subject).toBe('HP 305 Black Ink Cartridge के लिए आपका प्रीपेड लेबल');
    expect(ready.text_body).toContain(`आपका प्रीपेड रिटर्न लेबल तैयार है: ${h.carrier}, ट्रैकिंग नंबर ${h.awb}।`);
    expect(ready.text_body).toContain(hi.labelReady.print);
    expect(ready.text_body).toContain(`${hi.labelReady.action}: http://localhost:3000/api/exchange/${h.id}/label`);
    expect(ready.link).toBe(`http://localhost:3000/api/exchange/${h.id}/label`);
    expectHindi(ready);
    const pickedUp = await lastMail(hindi, 'parcel_picked_up');
    expect(pickedUp.subject).toBe(hi.pickedUp.subject('HP 305 Black Ink Cartridge'));
    expect(pickedUp.text_body).toContain(hi.pickedUp.body(h.carrier, h.awb));
    expectHindi(pickedUp);
    const delivered = await lastMail(hindi, 'parcel_delivered');
    expect(delivered.subject).toBe('आपका HP 305 Black Ink Cartridge हमारे वेयरहाउस पहुँच गया है');
    expect(delivered.text_body).toContain(hi.delivered.body(h.carrier, h.awb));
    expect(delivered.text_body).toContain(`${hi.viewRequest}: http://localhost:3000/exchange/${h.id}`);
    expectHindi(delivered);

    const english = await customerIn('en');
    const e = await label(english);
    expect(await lastMail(english, 'label_ready')).toMatchObject({
      subject: 'Your prepaid label for HP 305 Black Ink Cartridge',
      text_body: [
        `Your prepaid return label is ready: ${e.carrier}, tracking number ${e.awb}.`,
        'Print the label and the packing slip (one PDF), put the slip in the box, stick the label on it and hand the parcel to the courier when they come for it.',
        `Download your label: http://localhost:3000/api/exchange/${e.id}/label`,
        '— SwapPoints',
      ].join('\n\n'),
    });
    expect(await lastMail(english, 'parcel_picked_up')).toMatchObject({
      subject: 'Your HP 305 Black Ink Cartridge is on its way',
      text_body: expect.stringContaining(`${e.carrier} picked up your parcel (tracking number ${e.awb}). We will let you know when it reaches our warehouse.`),
    });
    expect(await lastMail(english, 'parcel_delivered')).toMatchObject({
      subject: 'Your HP 305 Black Ink Cartridge reached our warehouse',
      text_body: expect.stringContaining(`${e.carrier} delivered your parcel (tracking number ${e.awb}) to our warehouse. We will inspect the item and assign your store credit.`),
    });
  });
});
