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
