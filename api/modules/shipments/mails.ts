import type { NewMail } from '#api/modules/mail/service.ts';
import { composeMail, customerLink } from '#api/modules/mail/templates.ts';
import { MAIL_TEXTS } from '#api/modules/mail/texts.ts';
import type { Language } from '#api/modules/users/rules.ts';

/** The customer's mails about a prepaid label, in their language: ready, picked up, delivered to the warehouse. */

interface ParcelSummary {
  requestId: string;
  productName: string;
  carrier: string;
  trackingNumber: string;
}

export function labelReadyMail(to: string, publicUrl: string, parcel: ParcelSummary, lang: Language): NewMail {
  const texts = MAIL_TEXTS[lang].labelReady;
  return composeMail({
    to,
    kind: 'label_ready',
    lang,
    subject: texts.subject(parcel.productName),
    paragraphs: [texts.body(parcel.carrier, parcel.trackingNumber), texts.print],
    action: { label: texts.action, url: `${publicUrl}/api/exchange/${parcel.requestId}/label` },
  });
}

export function pickedUpMail(to: string, publicUrl: string, parcel: ParcelSummary, lang: Language): NewMail {
  const texts = MAIL_TEXTS[lang].pickedUp;
  return composeMail({
    to,
    kind: 'parcel_picked_up',
    lang,
    subject: texts.subject(parcel.productName),
    paragraphs: [texts.body(parcel.carrier, parcel.trackingNumber)],
    action: customerLink(publicUrl, parcel.requestId, lang),
  });
}

export function deliveredMail(to: string, publicUrl: string, parcel: ParcelSummary, lang: Language): NewMail {
  const texts = MAIL_TEXTS[lang].delivered;
  return composeMail({
    to,
    kind: 'parcel_delivered',
    lang,
    subject: texts.subject(parcel.productName),
    paragraphs: [texts.body(parcel.carrier, parcel.trackingNumber)],
    action: customerLink(publicUrl, parcel.requestId, lang),
  });
}
