import { describe, expect, test } from 'bun:test';
import { CARRIER_MESSAGES } from '#api/integrations/carriers/messages.ts';
import { DATABASE_UNAVAILABLE } from '#api/db/resilience.ts';
import { unauthorized } from '#api/lib/errors.ts';
import { tooLongMessage } from '#api/lib/text.ts';
import { LINK_EXPIRED, LINK_INVALID, LINK_USED, tooManySignInsMessage } from '#api/modules/auth/service.ts';
import { CROSS_SITE_MESSAGE } from '#api/modules/auth/plugin.ts';
import { TERMS_CHANGED_AGAIN } from '#api/modules/auth/terms.ts';
import { notShippedFeedback, offerDeclinedFeedback, OFFER_ALREADY_ACCEPTED, RETURN_ADDRESS_FIELDS, RETURN_ADDRESS_NEEDED } from '#api/modules/credit/rules.ts';
import { notAnImageMessage, tooLargeMessage, tooManyUploadsMessage } from '#api/modules/images/rules.ts';
import { tooManyOpenMessage as openFromCaps } from '#api/modules/requests/caps.ts';
import { CUSTOMER_NOT_FOUND as notFoundFromQueries } from '#api/modules/requests/queries.ts';
import {
  CHANGED_MEANWHILE,
  CUSTOMER_NOT_FOUND,
  EVENT_LABELS,
  eventLabel,
  FILL_REQUIRED_FIELDS,
  requestTextTooLong,
  SHIPPING_ALREADY_SUBMITTED,
  tooManyOpenMessage,
  tooManyTodayMessage,
} from '#api/modules/requests/rules.ts';
import { OFFER_OPEN, PARCEL_ON_ITS_WAY } from '#api/modules/privacy/rules.ts';
import { SUBMISSION_REFUSED } from '#api/modules/risk/rules.ts';
import { SHIPROCKET_MESSAGES } from '#api/integrations/carriers/shiprocket.ts';
import { missingPickupFields, PICKED_UP_NOTE, pickupAddressProblem, pickupFieldTooLong } from '#api/modules/shipments/rules.ts';
import { PHONE_INVALID } from '#api/modules/users/rules.ts';
import { belowMinimum } from '#api/modules/valuation/rules.ts';
import { hi } from '#src/i18n/hi.ts';
import { serverText } from '#src/i18n/server-text.ts';
import { t, tn } from '#src/i18n/t.ts';
import { eventActor, eventNote, eventTitle, reviewStepText, stepTitles, STEP_TITLES, tooManyImagesMessage } from '#src/lib/requests.ts';
import { waitingOn } from '#src/lib/journey.ts';

const DEVANAGARI = /[\u0900-\u097F]/;

describe("the API's sentences in the English catalog are the API's own words", () => {
  test('texts whose rule lives in a server file, or formats its values itself, are pinned to it', () => {
    expect(t('en', 'api.belowMinimum', { amount: '₹250' })).toBe(belowMinimum(250, 'INR'));
    expect(t('en', 'api.missingFields', { fields: 'Phone, Postal Code' })).toBe(missingPickupFields(['phone', 'postalCode']));
    expect(t('en', 'api.postalIndia')).toBe(pickupAddressProblem({ postalCode: '1234', phone: '' }, 'IN')!.message);
    expect(t('en', 'api.phoneIndia')).toBe(pickupAddressProblem({ postalCode: '560001', phone: '12345' }, 'IN')!.message);
    expect(t('en', 'api.phoneChars')).toBe(pickupAddressProblem({ postalCode: '560001', phone: 'call me' }, 'IN')!.message);
    expect(t('en', 'api.postalOther')).toBe(pickupAddressProblem({ postalCode: '#', phone: '' }, 'Freedonia')!.message);
    expect(t('en', 'api.phoneDigits')).toBe(pickupAddressProblem({ postalCode: 'AB1', phone: '123' }, 'Freedonia')!.message);
    expect([t('en', 'api.linkInvalid'), t('en', 'api.linkUsed'), t('en', 'api.linkExpired')]).toEqual([LINK_INVALID, LINK_USED, LINK_EXPIRED]);
    expect([1, 5].map((n) => tn('en', 'api.signInWait', n))).toEqual([tooManySignInsMessage(1), tooManySignInsMessage(5)]);
    expect(t('en', 'api.signIn')).toBe(unauthorized().message);
    expect(t('en', 'api.crossSite')).toBe(CROSS_SITE_MESSAGE);
    expect(t('en', 'api.databaseDown')).toBe(DATABASE_UNAVAILABLE);
    expect(t('en', 'api.termsChanged')).toBe(TERMS_CHANGED_AGAIN);
    expect(t('en', 'field.tooLong', { label: 'Brand', max: 100 })).toBe(tooLongMessage('Brand', 100));
    expect(t('en', 'images.tooMany.other', { max: 5, count: 2 })).toBe('At most 5 images are allowed: 2 photos were not added.');
  });

  test('messages moved to rules.ts are still what the services answer with', () => {
    expect(notFoundFromQueries).toBe(CUSTOMER_NOT_FOUND);
    expect(openFromCaps).toBe(tooManyOpenMessage);
    expect(SHIPROCKET_MESSAGES).toBe(CARRIER_MESSAGES);
  });
});

describe('serverText: the API says it in English, a Hindi page shows it in Hindi', () => {
  const said = [
    CUSTOMER_NOT_FOUND,
    CHANGED_MEANWHILE,
    SHIPPING_ALREADY_SUBMITTED,
    FILL_REQUIRED_FIELDS,
    SUBMISSION_REFUSED,
    tooManyOpenMessage(3),
    tooManyTodayMessage(10),
    tooManyUploadsMessage(),
    tooLargeMessage('IMG_2041.jpg'),
    notAnImageMessage('notes.pdf'),
    belowMinimum(250, 'INR'),
    requestTextTooLong('productName'),
    pickupFieldTooLong('addressLine1'),
    tooLongMessage(RETURN_ADDRESS_FIELDS.postalCode.label, RETURN_ADDRESS_FIELDS.postalCode.max),
    missingPickupFields(['name', 'phone', 'postalCode']),
    pickupAddressProblem({ postalCode: '1234', phone: '' }, 'IN')!.message,
    CARRIER_MESSAGES.noCourier,
    PICKED_UP_NOTE,
    OFFER_ALREADY_ACCEPTED,
    RETURN_ADDRESS_NEEDED,
    offerDeclinedFeedback('return', '₹450'),
    offerDeclinedFeedback('recycle', '₹450'),
    notShippedFeedback(7),
    PHONE_INVALID,
    PARCEL_ON_ITS_WAY('HP 88A Toner'),
    LINK_EXPIRED,
    tooManySignInsMessage(15),
    DATABASE_UNAVAILABLE,
  ];

  test.each(said)('%p', (english) => {
    const shown = serverText('hi', english);
    expect(shown).not.toBe(english);
    expect(shown).toMatch(DEVANAGARI);
    // the values in it (numbers, amounts, a file or product name; not a label's "Line 1") come through unchanged
    for (const value of english.match(/₹[\d,]+|(?<!Line )\b\d+\b|IMG_2041\.jpg|notes\.pdf|HP 88A Toner/g) ?? []) expect(shown).toContain(value);
    expect(serverText('en', english)).toBe(english);
  });

  test('field labels inside a sentence are the form\'s Hindi labels', () => {
    expect(serverText('hi', missingPickupFields(['phone', 'postalCode']))).toBe(`कृपया सभी ज़रूरी जानकारी भरें: ${hi['pickup.phone']}, ${hi['pickup.postalCode']}`);
    expect(serverText('hi', requestTextTooLong('description'))).toBe(t('hi', 'field.tooLong', { label: hi['field.description'], max: 5000 }));
    expect(serverText('hi', tooLongMessage('Postal code', 20))).toBe(t('hi', 'field.tooLong', { label: hi['return.postalCode'], max: 20 }));
  });

  test('several refusals joined in one answer (the erasure\'s) are each shown; a product name is kept even when it looks like a sentence', () => {
    const joined = [PARCEL_ON_ITS_WAY('Toner. A parcel is on its way'), OFFER_OPEN('Drum (unit)')].join(' ');
    expect(serverText('hi', joined)).toBe(`${t('hi', 'api.parcelOnItsWay', { product: 'Toner. A parcel is on its way' })} ${t('hi', 'api.offerOpen', { product: 'Drum (unit)' })}`);
  });

  test('a person\'s words, an unknown sentence and no sentence stay as they came', () => {
    expect(serverText('hi', 'Cracked housing, toner low.')).toBe('Cracked housing, toner low.');
    expect(serverText('hi', `${FILL_REQUIRED_FIELDS} please`)).toBe(`${FILL_REQUIRED_FIELDS} please`);
    expect(serverText('hi', null)).toBeNull();
    expect(serverText('hi', '')).toBe('');
  });
});

describe('the request page\'s pieces in a language', () => {
  test('every timeline event has its title in the catalogs, the English being eventLabel\'s', () => {
    for (const type of Object.keys(EVENT_LABELS)) {
      expect(eventTitle(type, null)).toBe(eventLabel(type));
      expect(eventTitle(type, null, 'hi')).toMatch(DEVANAGARI);
    }
    expect(eventTitle('shipped', 'shipped')).toBe(eventLabel('shipped', 'shipped'));
    expect(eventTitle('shipped', 'shipped', 'hi')).toBe(hi['event.shipped.corrected']);
    expect(eventTitle('audit_only', null, 'hi')).toBe('Audit_only');
  });

  test('notes: English as written; for a Hindi reader the API\'s sentences translated, its composed notes left out, a person\'s words kept', () => {
    const composed = { type: 'tracking', note: 'Picked up at Chennai (SwapPoints Parcels, SWP0000000001)' };
    expect(eventNote(composed)).toBe(composed.note);
    expect(eventNote(composed, 'hi')).toBeNull();
    expect(eventNote({ type: 'offered', note: 'Offer of ₹400 (quoted ₹900) sent to the customer' }, 'hi')).toBeNull();
    expect(eventNote({ type: 'offer_declined', note: offerDeclinedFeedback('recycle', '₹400') }, 'hi')).toBe(t('hi', 'api.declinedRecycle', { amount: '₹400' }));
    expect(eventNote({ type: 'declined', note: 'Wrong model, sorry.' }, 'hi')).toBe('Wrong model, sorry.');
    expect(eventNote({ type: 'received', note: null }, 'hi')).toBeNull();
  });

  test('who acted, the steps, who the request waits for: Hindi for a Hindi reader, English unchanged, the admin\'s English', () => {
    expect([eventActor({ actorEmail: null, actorRole: 'admin' }), eventActor({ actorEmail: null, actorRole: 'admin' }, 'hi')]).toEqual(['SwapPoints team', 'SwapPoints टीम']);
    expect(eventActor({ actorEmail: 'a@b.in', actorRole: 'customer' }, 'hi')).toBe('a@b.in');
    expect(stepTitles()).toEqual([...STEP_TITLES]);
    expect(stepTitles('hi').every((title) => DEVANAGARI.test(title))).toBe(true);
    expect(reviewStepText('pending', 'hi')).toBe(hi['step.pending']);
    expect(waitingOn('in-transit', 'customer', 'hi')).toBe(hi['waiting.item']);
    expect(waitingOn('in-transit', 'admin', 'hi')).toBe('Waiting for the item to arrive');
    expect(waitingOn('awaiting-shipping', 'admin', 'hi')).toBe('Waiting for the customer');
    expect(tooManyImagesMessage(1, 'hi')).toBe('ज़्यादा से ज़्यादा 5 फ़ोटो जोड़ी जा सकती हैं: 1 फ़ोटो नहीं जोड़ी गई।');
  });
});
