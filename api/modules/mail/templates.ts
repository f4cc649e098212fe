import type { WarehouseAddress } from '#api/db/types.ts';
import type { NewMail } from './service.ts';
import { formatMoney } from '#api/lib/money.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A plain message with an optional call to action, as text and as simple HTML. */
export function composeMail(input: {
  to: string;
  kind: string;
  subject: string;
  paragraphs: string[];
  action?: { label: string; url: string };
}): NewMail {
  const { to, kind, subject, paragraphs, action } = input;
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : []), '— SwapPoints'].join('\n\n');
  const html = [
    '<div style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">',
    ...paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`),
    action
      ? `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 16px;background:#0f5f5c;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>`
      : '',
    '<p style="color:#555">— SwapPoints</p></div>',
  ].join('');
  return { to, kind, subject, text, html, link: action?.url ?? null };
}

export function signInMail(to: string, link: string, ttlMinutes: number): NewMail {
  return composeMail({
    to,
    kind: 'sign_in',
    subject: 'Your SwapPoints sign-in link',
    paragraphs: [
      'Hello,',
      `Use the link below to sign in to SwapPoints. It works once and expires in ${ttlMinutes} minutes.`,
      'If you did not ask to sign in, you can ignore this email: nobody can sign in without the link.',
    ],
    action: { label: 'Sign in to SwapPoints', url: link },
  });
}

// ---- exchange request notices -------------------------------------------------------------------

export interface RequestSummary {
  id: string;
  productName: string;
  brand: string;
}

const customerLink = (publicUrl: string, id: string) => ({ label: 'View your exchange request', url: `${publicUrl}/exchange/${id}` });
const productOf = (r: RequestSummary) => `${r.productName} (${r.brand})`;

export function formatAddress(w: WarehouseAddress): string {
  return [
    w.name,
    w.addressLine1,
    w.addressLine2,
    `${w.city}, ${w.state} ${w.postalCode}`,
    w.country,
    w.contactPerson ? `Contact: ${w.contactPerson}${w.contactPhone ? `, ${w.contactPhone}` : ''}` : w.contactPhone ? `Phone: ${w.contactPhone}` : null,
  ]
    .filter(Boolean)
    .join('\n');
}

export function requestApprovedMail(to: string, publicUrl: string, request: RequestSummary, shipTo: WarehouseAddress, feedback: string | null): NewMail {
  return composeMail({
    to,
    kind: 'request_approved',
    subject: `Your exchange request for ${request.productName} is approved`,
    paragraphs: [
      `Good news: your exchange request for ${productOf(request)} has been approved.`,
      ...(feedback ? [`Our team's note: ${feedback}`] : []),
      `Please ship the item to this address:\n${formatAddress(shipTo)}`,
      'Once it is on its way, add the carrier, tracking number and shipping date on your request page.',
    ],
    action: customerLink(publicUrl, request.id),
  });
}

export function requestDeclinedMail(to: string, publicUrl: string, request: RequestSummary, feedback: string | null): NewMail {
  return composeMail({
    to,
    kind: 'request_declined',
    subject: `Your exchange request for ${request.productName} was declined`,
    paragraphs: [
      `We're sorry: your exchange request for ${productOf(request)} has been declined.`,
      feedback ? `Our team's feedback: ${feedback}` : 'Our team did not leave any further feedback.',
    ],
    action: customerLink(publicUrl, request.id),
  });
}

export function itemReceivedMail(to: string, publicUrl: string, request: RequestSummary): NewMail {
  return composeMail({
    to,
    kind: 'item_received',
    subject: `We received your ${request.productName}`,
    paragraphs: [
      `Your ${productOf(request)} has arrived at our warehouse and is now being inspected.`,
      'We will let you know as soon as store credit has been assigned.',
    ],
    action: customerLink(publicUrl, request.id),
  });
}

/** `valuation`: lines on the quote, a campaign bonus and why the credit is below the quote (see credit/terms.ts). */
export function creditAssignedMail(to: string, publicUrl: string, request: RequestSummary, amount: number, currency: string, valuation: string[] = []): NewMail {
  return composeMail({
    to,
    kind: 'credit_assigned',
    subject: `${formatMoney(amount, currency)} store credit for your ${request.productName}`,
    paragraphs: [
      `We have valued your ${productOf(request)} and assigned ${formatMoney(amount, currency)} in store credit to your shop account.`,
      ...valuation,
      'You can use it on your next purchase.',
    ],
    action: customerLink(publicUrl, request.id),
  });
}

export function exchangeCompletedMail(to: string, publicUrl: string, request: RequestSummary, amount: number, currency: string): NewMail {
  return composeMail({
    to,
    kind: 'exchange_completed',
    subject: `Your exchange of ${request.productName} is complete`,
    paragraphs: [
      `Your exchange of ${productOf(request)} is complete: ${formatMoney(amount, currency)} in store credit is yours to use on your next purchase.`,
      'Thank you for trading in with us.',
    ],
    action: customerLink(publicUrl, request.id),
  });
}

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
  amount: string;
  quoted: string;
  reason: string | null;
  /** the answer date as the shop's calendar reads it: '2 December 2026' */
  respondBy: string;
  photoUrls: string[];
}

/** The offer: both figures, the reason, the photos, and that no answer by the date accepts it. */
export function offerMadeMail(to: string, publicUrl: string, request: RequestSummary, offer: OfferTerms): NewMail {
  return composeMail({
    to,
    kind: 'offer_made',
    subject: `Our offer for your ${request.productName}: ${offer.amount}`,
    paragraphs: [
      `We have inspected your ${productOf(request)}. You were quoted ${offer.quoted} when you submitted it; after inspection we can offer ${offer.amount} in store credit.`,
      ...(offer.reason ? [`Why the offer is below the quote: ${offer.reason}`] : []),
      ...(offer.photoUrls.length > 0 ? [`Inspection photos: ${offer.photoUrls.join(' ')}`] : []),
      `Please accept or decline the offer on your request page by ${offer.respondBy}. If you decline, we send the item back to you free of charge or recycle it, as you choose.`,
      `If we have no answer from you by ${offer.respondBy}, the offer is accepted and ${offer.amount} is credited to your account.`,
    ],
    action: { label: 'Answer the offer', url: `${publicUrl}/exchange/${request.id}` },
  });
}

export function offerReminderMail(to: string, publicUrl: string, request: RequestSummary, offer: Pick<OfferTerms, 'amount' | 'respondBy'>): NewMail {
  return composeMail({
    to,
    kind: 'offer_reminder',
    subject: `Reminder: our offer for your ${request.productName} is accepted on ${offer.respondBy} without an answer`,
    paragraphs: [
      `We are still waiting for your answer to our offer of ${offer.amount} for your ${productOf(request)}.`,
      `If we have no answer from you by ${offer.respondBy}, the offer is accepted and ${offer.amount} is credited to your account.`,
    ],
    action: { label: 'Answer the offer', url: `${publicUrl}/exchange/${request.id}` },
  });
}

export function shipReminderMail(to: string, publicUrl: string, request: RequestSummary, shipBy: string): NewMail {
  return composeMail({
    to,
    kind: 'ship_reminder',
    subject: `Please ship your ${request.productName} by ${shipBy}`,
    paragraphs: [
      `Your exchange request for ${productOf(request)} is approved, but we have no shipping details for it yet.`,
      `Please ship the item and add the carrier and tracking number on your request page by ${shipBy}. A request not shipped by then is closed; you can submit it again afterwards.`,
    ],
    action: customerLink(publicUrl, request.id),
  });
}

export function returnShippedMail(to: string, publicUrl: string, request: RequestSummary, shipment: { carrierName: string; trackingNumber: string }): NewMail {
  return composeMail({
    to,
    kind: 'return_shipped',
    subject: `Your ${request.productName} is on its way back to you`,
    paragraphs: [
      `We have sent your ${productOf(request)} back to you with ${shipment.carrierName}, tracking number ${shipment.trackingNumber}.`,
    ],
    action: customerLink(publicUrl, request.id),
  });
}
