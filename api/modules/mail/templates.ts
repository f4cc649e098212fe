import type { WarehouseAddress } from '#api/db/types.ts';
import type { NewMail } from './service.ts';
import { formatMoney } from '#api/lib/money.ts';
import { LANGUAGE_LOCALES, type Language } from '#api/modules/users/rules.ts';
import { MAIL_TEXTS } from './texts.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A plain message with an optional call to action, as text and as simple HTML. */
export function composeMail(input: {
  to: string;
  kind: string;
  subject: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  /** the reader's language: its signature line (English by default) */
  lang?: Language;
}): NewMail {
  const { to, kind, subject, paragraphs, action } = input;
  const signature = MAIL_TEXTS[input.lang ?? 'en'].signature;
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : []), signature].join('\n\n');
  const html = [
    '<div style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">',
    ...paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`),
    action
      ? `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 16px;background:#0f5f5c;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>`
      : '',
    `<p style="color:#555">${escapeHtml(signature)}</p></div>`,
  ].join('');
  return { to, kind, subject, text, html, link: action?.url ?? null };
}

export function signInMail(to: string, link: string, ttlMinutes: number, lang: Language): NewMail {
  const texts = MAIL_TEXTS[lang];
  return composeMail({
    to,
    kind: 'sign_in',
    lang,
    subject: texts.signIn.subject,
    paragraphs: [texts.hello, texts.signIn.body(ttlMinutes), texts.signIn.ignore],
    action: { label: texts.signIn.action, url: link },
  });
}

// ---- exchange request notices -------------------------------------------------------------------

export interface RequestSummary {
  id: string;
  productName: string;
  brand: string;
}

/** The button to the customer's request page, in their language. */
export const customerLink = (publicUrl: string, id: string, lang: Language) => ({ label: MAIL_TEXTS[lang].viewRequest, url: `${publicUrl}/exchange/${id}` });
const productOf = (r: RequestSummary) => `${r.productName} (${r.brand})`;
const money = (amount: number, currency: string, lang: Language) => formatMoney(amount, currency, LANGUAGE_LOCALES[lang]);

export function formatAddress(w: WarehouseAddress, lang: Language = 'en'): string {
  const { contact, phone } = MAIL_TEXTS[lang].address;
  return [
    w.name,
    w.addressLine1,
    w.addressLine2,
    `${w.city}, ${w.state} ${w.postalCode}`,
    w.country,
    w.contactPerson ? `${contact}: ${w.contactPerson}${w.contactPhone ? `, ${w.contactPhone}` : ''}` : w.contactPhone ? `${phone}: ${w.contactPhone}` : null,
  ]
    .filter(Boolean)
    .join('\n');
}

/** The mails a customer gets are written in their language (`lang`, from their profile). */
export function requestApprovedMail(to: string, publicUrl: string, request: RequestSummary, shipTo: WarehouseAddress, feedback: string | null, lang: Language): NewMail {
  const texts = MAIL_TEXTS[lang].approved;
  return composeMail({
    to,
    kind: 'request_approved',
    lang,
    subject: texts.subject(request.productName),
    paragraphs: [texts.body(productOf(request)), ...(feedback ? [texts.note(feedback)] : []), texts.shipTo(formatAddress(shipTo, lang)), texts.next],
    action: customerLink(publicUrl, request.id, lang),
  });
}

export function requestDeclinedMail(to: string, publicUrl: string, request: RequestSummary, feedback: string | null, lang: Language): NewMail {
  const texts = MAIL_TEXTS[lang].declined;
  return composeMail({
    to,
    kind: 'request_declined',
    lang,
    subject: texts.subject(request.productName),
    paragraphs: [texts.body(productOf(request)), feedback ? texts.feedback(feedback) : texts.noFeedback],
    action: customerLink(publicUrl, request.id, lang),
  });
}

export function itemReceivedMail(to: string, publicUrl: string, request: RequestSummary, lang: Language): NewMail {
  const texts = MAIL_TEXTS[lang].received;
  return composeMail({
    to,
    kind: 'item_received',
    lang,
    subject: texts.subject(request.productName),
    paragraphs: [texts.body(productOf(request)), texts.next],
    action: customerLink(publicUrl, request.id, lang),
  });
}

/** `valuation`: lines on the quote, a campaign bonus and why the credit is below the quote (see credit/terms.ts). */
export function creditAssignedMail(
  to: string,
  publicUrl: string,
  request: RequestSummary,
  credit: { amount: number; currency: string; valuation?: string[] },
  lang: Language,
): NewMail {
  const texts = MAIL_TEXTS[lang].credited;
  const amount = money(credit.amount, credit.currency, lang);
  return composeMail({
    to,
    kind: 'credit_assigned',
    lang,
    subject: texts.subject(amount, request.productName),
    paragraphs: [texts.body(productOf(request), amount), ...(credit.valuation ?? []), texts.use],
    action: customerLink(publicUrl, request.id, lang),
  });
}

export function exchangeCompletedMail(to: string, publicUrl: string, request: RequestSummary, credit: { amount: number; currency: string }, lang: Language): NewMail {
  const texts = MAIL_TEXTS[lang].completed;
  return composeMail({
    to,
    kind: 'exchange_completed',
    lang,
    subject: texts.subject(request.productName),
    paragraphs: [texts.body(productOf(request), money(credit.amount, credit.currency, lang)), texts.thanks],
    action: customerLink(publicUrl, request.id, lang),
  });
}

/** The reminder that pushed store credit expires soon; `expiresOn` already written for the reader. */
export function creditExpiryMail(to: string, publicUrl: string, credit: { amount: number; currency: string; expiresOn: string }, lang: Language): NewMail {
  const texts = MAIL_TEXTS[lang].expiry;
  const amount = money(credit.amount, credit.currency, lang);
  return composeMail({
    to,
    kind: 'credit_expiry_reminder',
    lang,
    subject: texts.subject(amount, credit.expiresOn),
    paragraphs: [texts.body(amount, credit.expiresOn), texts.use],
    action: { label: texts.action, url: `${publicUrl}/dashboard` },
  });
}

/** To the admins: always English, as the admin pages are. */
export function newRequestAdminMail(to: string, publicUrl: string, request: RequestSummary & { customerEmail: string; condition: string }): NewMail {
  return composeMail({
    to,
    kind: 'admin_new_request',
    subject: `New exchange request: ${request.productName}`,
    paragraphs: [
      `${request.customerEmail} has submitted an exchange request for ${productOf(request)}, condition ${request.condition.replaceAll('_', ' ')}.`,
      'It is waiting for your review.',
    ],
    action: { label: 'Review the request', url: `${publicUrl}/admin/exchange/${request.id}` },
  });
}

// ---- revised offers and deadlines (issue 24) ----------------------------------------------------

export interface OfferTerms {
  /** the amounts and the date written for the reader (money.ts, mailDate in credit/offer.ts, in their locale) */
  amount: string;
  quoted: string;
  reason: string | null;
  /** the answer date as the shop's calendar reads it: '2 December 2026', '2 दिसंबर 2026' */
  respondBy: string;
  photoUrls: string[];
}

/** The offer: both figures, the reason, the photos, and that no answer by the date accepts it. */
export function offerMadeMail(to: string, publicUrl: string, request: RequestSummary, offer: OfferTerms, lang: Language): NewMail {
  const texts = MAIL_TEXTS[lang];
  return composeMail({
    to,
    kind: 'offer_made',
    lang,
    subject: texts.offer.subject(request.productName, offer.amount),
    paragraphs: [
      texts.offer.body(productOf(request), offer.quoted, offer.amount),
      ...(offer.reason ? [texts.offer.reason(offer.reason)] : []),
      ...(offer.photoUrls.length > 0 ? [texts.credited.photos(offer.photoUrls.join(' '))] : []),
      texts.offer.answer(offer.respondBy),
      texts.offer.noAnswer(offer.respondBy, offer.amount),
    ],
    action: { label: texts.offer.action, url: `${publicUrl}/exchange/${request.id}` },
  });
}

export function offerReminderMail(to: string, publicUrl: string, request: RequestSummary, offer: Pick<OfferTerms, 'amount' | 'respondBy'>, lang: Language): NewMail {
  const texts = MAIL_TEXTS[lang];
  return composeMail({
    to,
    kind: 'offer_reminder',
    lang,
    subject: texts.offerReminder.subject(request.productName, offer.respondBy),
    paragraphs: [texts.offerReminder.body(offer.amount, productOf(request)), texts.offer.noAnswer(offer.respondBy, offer.amount)],
    action: { label: texts.offer.action, url: `${publicUrl}/exchange/${request.id}` },
  });
}

/** `shipBy` already written for the reader. */
export function shipReminderMail(to: string, publicUrl: string, request: RequestSummary, shipBy: string, lang: Language): NewMail {
  const texts = MAIL_TEXTS[lang].shipReminder;
  return composeMail({
    to,
    kind: 'ship_reminder',
    lang,
    subject: texts.subject(request.productName, shipBy),
    paragraphs: [texts.body(productOf(request)), texts.deadline(shipBy)],
    action: customerLink(publicUrl, request.id, lang),
  });
}

export function returnShippedMail(to: string, publicUrl: string, request: RequestSummary, shipment: { carrierName: string; trackingNumber: string }, lang: Language): NewMail {
  const texts = MAIL_TEXTS[lang].returnShipped;
  return composeMail({
    to,
    kind: 'return_shipped',
    lang,
    subject: texts.subject(request.productName),
    paragraphs: [texts.body(productOf(request), shipment.carrierName, shipment.trackingNumber)],
    action: customerLink(publicUrl, request.id, lang),
  });
}
