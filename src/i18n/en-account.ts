/**
 * The English texts of the customer's account pieces and of the small parts every page shares:
 * the WhatsApp card, "Your data", the loyalty card, the terms banner, length hints, the photo
 * picker's messages, dialogs and progress. Part of en.ts.
 */
import { DELETE_ACCOUNT_CONFIRM } from '#api/modules/privacy/rules.ts';
import { REQUEST_FIELD_LABELS } from '#api/modules/requests/rules.ts';
import { PROFILE_FIELD_LABELS } from '#api/modules/users/rules.ts';

export const enAccount = {
  // WhatsApp updates (users/rules.ts names the fields)
  'whatsapp.title': PROFILE_FIELD_LABELS.whatsapp,
  'whatsapp.intro': 'Follow your trade-ins on WhatsApp as well as by email. Reply STOP on WhatsApp at any time to stop.',
  'whatsapp.phoneHint': 'A 10-digit Indian mobile number, or + and the country code for another country.',
  'whatsapp.optIn': 'Send me updates on WhatsApp',
  'whatsapp.save': 'Save WhatsApp settings',
  'whatsapp.failed': 'Your WhatsApp settings could not be saved. Please try again.',
  'whatsapp.savedOn': 'Saved. WhatsApp updates go to {phone}.',
  'whatsapp.savedOff': 'Saved. You get no WhatsApp updates.',
  'profile.phone': PROFILE_FIELD_LABELS.phone,
  'profile.whatsapp': PROFILE_FIELD_LABELS.whatsapp,
  'profile.language': PROFILE_FIELD_LABELS.language,

  // Your data
  'data.title': 'Your data',
  'data.intro': 'Download a copy of everything we hold about you (requests, photos, shipping details, credit and mails), or delete your account.',
  'data.download': 'Download my data',
  'data.delete': 'Delete my account',
  'data.deleteTitle': 'Delete your account?',
  'data.deleteBody': DELETE_ACCOUNT_CONFIRM,
  'data.keep': 'No, keep my account',
  'data.confirm': 'Yes, delete my account',
  'data.failed': 'Your account could not be deleted. Please try again later.',

  // the loyalty card's printing
  'card.holder': 'VALUED CUSTOMER',
  'card.brand': 'SWAP • POINTS • SHOP',
  'card.valid': 'VALID THRU: ∞',

  // updated terms
  'terms.updated': 'We updated our terms.',
  'terms.read': 'Please read the {terms} and the {privacy} and agree to continue using SwapPoints.',
  'terms.agree': 'I agree',
  'terms.saving': 'Saving',
  'terms.failed': 'Your agreement could not be saved. Please try again.',
  'terms.thanks': 'Thank you. Your agreement to the updated terms is saved.',

  // the request form's fields (requests/rules.ts), as the API's length messages name them
  'field.productName': REQUEST_FIELD_LABELS.productName,
  'field.brand': REQUEST_FIELD_LABELS.brand,
  'field.description': REQUEST_FIELD_LABELS.description,
  'field.carrierName': REQUEST_FIELD_LABELS.carrierName,
  'field.trackingNumber': REQUEST_FIELD_LABELS.trackingNumber,
  'field.notes': REQUEST_FIELD_LABELS.notes,
  'field.count': '{length}/{max} characters',
  'field.tooLong': '{label} can be at most {max} characters.',

  // the photo picker
  'images.tooMany.one': 'At most {max} images are allowed: {count} photo was not added.',
  'images.tooMany.other': 'At most {max} images are allowed: {count} photos were not added.',
  'images.uploadFailed': 'Failed to upload image. Please try again.',
  'images.none': 'No photo',

  // shared pieces
  'refresh.refreshing': 'Refreshing',
  'refresh.loading': 'Loading',
  'flash.dismiss': 'Dismiss',
  'nav.loadingPage': 'Loading page',
} as const;
