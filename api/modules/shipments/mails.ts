import type { NewMail } from '#api/modules/mail/service.ts';
import { composeMail } from '#api/modules/mail/templates.ts';

/** The customer's mails about a prepaid label: ready, picked up, delivered to the warehouse. */

interface ParcelSummary {
  requestId: string;
  productName: string;
  carrier: string;
  trackingNumber: string;
}

const requestLink = (publicUrl: string, id: string) => ({ label: 'View your exchange request', url: `${publicUrl}/exchange/${id}` });

export function labelReadyMail(to: string, publicUrl: string, parcel: ParcelSummary): NewMail {
  return composeMail({
    to,
    kind: 'label_ready',
    subject: `Your prepaid label for ${parcel.productName}`,
    paragraphs: [
      `Your prepaid return label is ready: ${parcel.carrier}, tracking number ${parcel.trackingNumber}.`,
      'Print the label and the packing slip (one PDF), put the slip in the box, stick the label on it and hand the parcel to the courier when they come for it.',
    ],
    action: { label: 'Download your label', url: `${publicUrl}/api/exchange/${parcel.requestId}/label` },
  });
}

export function pickedUpMail(to: string, publicUrl: string, parcel: ParcelSummary): NewMail {
  return composeMail({
    to,
    kind: 'parcel_picked_up',
    subject: `Your ${parcel.productName} is on its way`,
    paragraphs: [`${parcel.carrier} picked up your parcel (tracking number ${parcel.trackingNumber}). We will let you know when it reaches our warehouse.`],
    action: requestLink(publicUrl, parcel.requestId),
  });
}

export function deliveredMail(to: string, publicUrl: string, parcel: ParcelSummary): NewMail {
  return composeMail({
    to,
    kind: 'parcel_delivered',
    subject: `Your ${parcel.productName} reached our warehouse`,
    paragraphs: [`${parcel.carrier} delivered your parcel (tracking number ${parcel.trackingNumber}) to our warehouse. We will inspect the item and assign your store credit.`],
    action: requestLink(publicUrl, parcel.requestId),
  });
}
