/**
 * Sentences the API writes that a customer reads: its refusals on the customer's forms, and the
 * feedback and notes it composes (a declined offer, the courier's pickup). The API answers in the
 * spec's English; the pages show these in the reader's language by matching the English
 * (server-text.ts). Each text is the rule's own: a constant, or the rule's function with a
 * {param} in place of each value. Part of en.ts.
 */
import { CARRIER_MESSAGES } from '#api/integrations/carriers/messages.ts';
import {
  NO_OFFER_WAITING,
  OFFER_ALREADY_ACCEPTED,
  OFFER_ALREADY_DECLINED,
  OFFER_ANSWER_DATE_PASSED,
  OFFER_AUTO_ACCEPTED,
  OFFER_DECLINED_TWICE,
  RETURN_ADDRESS_NEEDED,
  notShippedFeedback,
  offerDeclinedFeedback,
} from '#api/modules/credit/rules.ts';
import { IMAGES_UNAVAILABLE, notAnImageMessage, tooLargeMessage, tooManyUploadsMessage } from '#api/modules/images/rules.ts';
import { OFFER_OPEN, PARCEL_ON_ITS_WAY } from '#api/modules/privacy/rules.ts';
import {
  CHANGED_MEANWHILE,
  CUSTOMER_NOT_FOUND,
  NO_SHIPPING_TO_CORRECT,
  ONLY_PENDING_CANCEL,
  SHIPPING_ALREADY_SUBMITTED,
  SHIPPING_LOCKED,
  SHIPPING_NEEDS_APPROVAL,
  tooManyOpenMessage,
  tooManyTodayMessage,
} from '#api/modules/requests/rules.ts';
import { SUBMISSION_REFUSED } from '#api/modules/risk/rules.ts';
import {
  ALREADY_SHIPPED,
  CARRIER_FAILED,
  FILL_PICKUP_FIELDS,
  LABEL_BUSY,
  LABEL_NEEDS_APPROVAL,
  LABELS_NOT_OFFERED,
  PICKED_UP_NOTE,
} from '#api/modules/shipments/rules.ts';
import { LANGUAGE_INVALID, PHONE_INVALID, PHONE_NEEDED, WHATSAPP_INVALID } from '#api/modules/users/rules.ts';

/** A rule's sentence with `{name}` where each of its values goes: the rule only puts its arguments into a template string. */
const template = <A extends unknown[]>(rule: (...args: A) => string, ...names: string[]): string =>
  rule(...(names.map((name) => `{${name}}`) as unknown as A));

export const enApi = {
  // requests
  'api.notFound': CUSTOMER_NOT_FOUND,
  'api.onlyPendingCancel': ONLY_PENDING_CANCEL,
  'api.changedMeanwhile': CHANGED_MEANWHILE,
  'api.shippingNeedsApproval': SHIPPING_NEEDS_APPROVAL,
  'api.shippingAlreadySubmitted': SHIPPING_ALREADY_SUBMITTED,
  'api.noShippingToCorrect': NO_SHIPPING_TO_CORRECT,
  'api.shippingLocked': SHIPPING_LOCKED,
  'api.tooManyOpen': template(tooManyOpenMessage, 'max'),
  'api.tooManyToday': template(tooManyTodayMessage, 'max'),
  'api.submissionRefused': SUBMISSION_REFUSED,
  // valuation/rules.ts belowMinimum, which formats its amount itself (pinned in tests/unit/i18n-server-text.test.ts)
  'api.belowMinimum': "We can't take this item: it is worth less than {amount}.",

  // photos
  'api.tooManyUploads': tooManyUploadsMessage(),
  'api.imagesUnavailable': IMAGES_UNAVAILABLE,
  'api.tooLarge': template(tooLargeMessage, 'name'),
  'api.notAnImage': template(notAnImageMessage, 'name'),

  // the prepaid label (shipments/rules.ts, the couriers' words in carriers/messages.ts)
  'api.fillPickup': FILL_PICKUP_FIELDS,
  // missingPickupFields, which names the fields itself (pinned in the test)
  'api.missingFields': 'Please fill in all required fields: {fields}',
  // pickupAddressProblem for a shop in India, and for a country without its own formats (pinned in the test)
  'api.postalIndia': 'Postal Code must be a 6-digit PIN code (like 560058) for India.',
  'api.phoneIndia': 'Phone must be a phone number in India (+91 and the number, or the number alone).',
  'api.postalOther': 'Postal Code must be 2 to 11 letters or digits.',
  'api.phoneChars': 'Phone may hold only digits, spaces, dashes, brackets and a leading +.',
  'api.phoneDigits': 'Phone must have 7 to 15 digits.',
  'api.labelsNotOffered': LABELS_NOT_OFFERED,
  'api.labelNeedsApproval': LABEL_NEEDS_APPROVAL,
  'api.alreadyShipped': ALREADY_SHIPPED,
  'api.labelBusy': LABEL_BUSY,
  'api.carrierFailed': CARRIER_FAILED,
  'api.carrierTimeout': CARRIER_MESSAGES.timeout,
  'api.carrierAddress': CARRIER_MESSAGES.address,
  'api.carrierNoCourier': CARRIER_MESSAGES.noCourier,
  'api.carrierUnavailable': CARRIER_MESSAGES.failed,
  'api.carrierTracking': CARRIER_MESSAGES.tracking,
  'api.pickedUpNote': PICKED_UP_NOTE,

  // offers
  'api.noOfferWaiting': NO_OFFER_WAITING,
  'api.offerAlreadyAccepted': OFFER_ALREADY_ACCEPTED,
  'api.offerAutoAccepted': OFFER_AUTO_ACCEPTED,
  'api.offerAlreadyDeclined': OFFER_ALREADY_DECLINED,
  'api.offerDeclinedTwice': OFFER_DECLINED_TWICE,
  'api.offerDatePassed': OFFER_ANSWER_DATE_PASSED,
  'api.returnAddressNeeded': RETURN_ADDRESS_NEEDED,
  'api.declinedReturn': offerDeclinedFeedback('return', '{amount}'),
  'api.declinedRecycle': offerDeclinedFeedback('recycle', '{amount}'),
  'api.notShipped': template(notShippedFeedback, 'days'),

  // the profile (users/rules.ts)
  'api.phoneInvalid': PHONE_INVALID,
  'api.phoneNeeded': PHONE_NEEDED,
  'api.languageInvalid': LANGUAGE_INVALID,
  'api.whatsappInvalid': WHATSAPP_INVALID,

  // deleting the account
  'api.parcelOnItsWay': PARCEL_ON_ITS_WAY('{product}'),
  'api.offerOpen': OFFER_OPEN('{product}'),

  // signing in (auth/service.ts: pinned in the test)
  'api.linkInvalid': 'This sign-in link is not valid for this email address. Please request a new one.',
  'api.linkUsed': 'This sign-in link has already been used. Please request a new one.',
  'api.linkExpired': 'This sign-in link has expired. Please request a new one.',
  'api.signInWait.one': 'Too many sign-in attempts. Please wait {count} minute and try again.',
  'api.signInWait.other': 'Too many sign-in attempts. Please wait {count} minutes and try again.',

  // any page (their rules live in server files: pinned in the test)
  'api.signIn': 'Please sign in to continue.',
  'api.crossSite': 'This request came from another site and was refused.',
  'api.databaseDown': 'The service is briefly unavailable. Please try again in a moment.',
  'api.termsChanged': 'The terms changed while you were reading them. Please read them once more and agree again.',
} as const;
