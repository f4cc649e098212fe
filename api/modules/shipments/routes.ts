import { Elysia, t } from 'elysia';
import type { AppContext } from '#api/context.ts';
import { CarrierAuthError } from '#api/integrations/carriers/types.ts';
import { AppError, notFound, unauthorized } from '#api/lib/errors.ts';
import { ErrorBody } from '#api/lib/schema.ts';
import type { AuthPlugin } from '#api/modules/auth/plugin.ts';
import { labelDocument, packingSlipDocument, requestShipment, returnLabelDocument, type PdfFile } from './documents.ts';
import { CarrierEventsAnswer, Label, LabelBody, PickupSuggestion, RequestShipment, ReturnBooking } from './model.ts';
import { labelUrl, returnLabelUrl } from './queries.ts';
import { bookReturn } from './returns.ts';
import { UNKNOWN_CARRIER } from './rules.ts';
import { createLabel } from './service.ts';
import { pickupSuggestion } from './suggestion.ts';
import { recordTrackingEvents } from './tracking.ts';

const signedIn = { 401: ErrorBody, 403: ErrorBody };
const pdf = (description: string) => t.String({ contentMediaType: 'application/pdf', description });
/** a carrier's webhook body is small; anything larger is not one */
const MAX_EVENT_BODY = 1_000_000;

function pdfAnswer(file: PdfFile): Response {
  return new Response(file.bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      'content-type': 'application/pdf',
      'content-disposition': `inline; filename="${file.filename}"`,
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}

/** Prepaid return labels, packing slips, returns booked with the carrier and carriers' tracking webhooks (issues 27 and 24). */
export function shipmentRoutes(ctx: AppContext, auth: AuthPlugin) {
  const customer = new Elysia({ prefix: '/exchange', tags: ['Exchange requests'] })
    .use(auth)
    .post(
      '/:id/label',
      async ({ params, body, user, status }) => {
        const { shipment, created } = await createLabel(ctx, user, params.id, body);
        const answer = { carrier: shipment.carrier_name!, trackingNumber: shipment.tracking_number!, labelUrl: labelUrl(ctx.settings.publicUrl, shipment.request_id) };
        return created ? status(201, answer) : answer;
      },
      {
        auth: true,
        body: LabelBody,
        response: { 200: Label, 201: Label, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, 502: ErrorBody, 503: ErrorBody, ...signedIn },
        detail: {
          summary: 'Get a prepaid return label',
          description:
            'Books a pickup at the given address with the shop\'s carrier (CARRIER) and answers 201 with the label. The request must be approved and not shipped (409); with CARRIER=none it is 409. A request that has a label answers it again with 200: never two shipments, also when two calls race. When the carrier fails or does not answer: 502 or 503, nothing kept, and a retry may work. Postal Code and Phone are checked for the shop\'s country as warehouse addresses are.',
        },
      },
    )
    .get('/:id/label/address', ({ params, user }) => pickupSuggestion(ctx, user, params.id), {
      auth: true,
      response: { 200: PickupSuggestion, 404: ErrorBody, 409: ErrorBody, ...signedIn },
      detail: {
        summary: 'The pickup address the label form starts with',
        description:
          "The shop's default address for the customer (name, phone, address, state's name, PIN code), to fill in the prepaid-label form; the customer may change any of it and POST /label checks it as usual. Empty fields when the shop has none, has one abroad, or does not answer within a few seconds (the form then starts empty: never a 5xx for the shop's sake). The request's owner only: 404 for anyone else. 409 when the shop offers no prepaid labels (CARRIER=none).",
      },
    })
    .get('/:id/label', async ({ params, user }) => pdfAnswer(await labelDocument(ctx, user, params.id)), {
      auth: true,
      response: { 200: pdf('the label page (or the carrier\'s) and the packing slip'), 404: ErrorBody, 409: ErrorBody, ...signedIn },
      detail: { summary: 'The prepaid label as PDF', description: 'The label followed by the packing slip, for the owner and admins; 404 for anyone else and when the request has no label.' },
    })
    .get('/:id/packing-slip', async ({ params, user }) => pdfAnswer(await packingSlipDocument(ctx, user, params.id)), {
      auth: true,
      response: { 200: pdf('one page: the request reference as QR code and text, the item, the warehouse'), 404: ErrorBody, 409: ErrorBody, ...signedIn },
      detail: { summary: 'The packing slip as PDF', description: 'For customers who ship on their own: the slip to put in the box, once the request is approved (409 before). Owner and admins; 404 for anyone else.' },
    })
    .get('/:id/shipment', ({ params, user }) => requestShipment(ctx, user, params.id), {
      auth: true,
      response: { 200: RequestShipment, 404: ErrorBody, ...signedIn },
      detail: {
        summary: 'The request\'s parcels and their tracking',
        description:
          'Whether the shop offers prepaid labels; the label (carrier, AWB, pickup address) with each tracking step once, in the order they happened; and, for a declined offer sent back through the carrier, the return (carrier, AWB, latest step and its steps). Owner and admins.',
      },
    });

  const returns = new Elysia({ prefix: '/admin/exchange-requests', tags: ['Admin: exchange requests'] })
    .use(auth)
    .post(
      '/:id/return/book',
      async ({ params, user, status }) => {
        const { shipment, created } = await bookReturn(ctx, user, params.id);
        const answer = { carrier: shipment.carrier_name!, trackingNumber: shipment.tracking_number!, labelUrl: returnLabelUrl(ctx.settings.publicUrl, shipment.request_id) };
        return created ? status(201, answer) : answer;
      },
      {
        admin: true,
        response: { 200: ReturnBooking, 201: ReturnBooking, 404: ErrorBody, 409: ErrorBody, 502: ErrorBody, 503: ErrorBody, ...signedIn },
        detail: {
          summary: 'Book the return of a declined offer with the carrier',
          description:
            "For a request whose customer declined the offer and chose \"Send it back to me\": books a shipment with the shop's carrier (CARRIER) from the request's warehouse to the address the customer gave, and answers 201 with the carrier, the AWB and the label's address. The return is then recorded as the manual form records it (POST …/return): on the timeline, and mailed to the customer with the tracking number. A request whose return is booked answers it again with 200: never two return shipments, also when two calls race. 409 with CARRIER=none (the manual form is the only way then), for a request with no return to ship, and for one already shipped by hand. When the carrier refuses or does not answer: 502 or 503 with a sentence, nothing kept, and a retry may work.",
        },
      },
    )
    .get('/:id/return/label', async ({ params }) => pdfAnswer(await returnLabelDocument(ctx, params.id)), {
      admin: true,
      response: { 200: pdf("the carrier's label for the return (or ours), to stick on the parcel"), 404: ErrorBody, ...signedIn },
      detail: { summary: 'The label of a return booked with the carrier, as PDF', description: 'Admins only. 404 when the request has no return booked with the carrier.' },
    });

  const carriers = new Elysia({ prefix: '/carriers', tags: ['Carriers'] }).post(
    '/:carrier/events',
    async ({ params, request }) => {
      const carrier = ctx.carrier;
      // `current` names whichever carrier is configured: Shiprocket refuses webhook addresses that
      // contain "shiprocket", "sr" or "kr", so its panel is given /api/carriers/current/events
      if (!carrier || (carrier.id !== params.carrier && params.carrier !== 'current')) throw notFound(UNKNOWN_CARRIER);
      const raw = await request.text();
      if (raw.length > MAX_EVENT_BODY) throw new AppError(413, 'The event body is too large.');
      let events;
      try {
        events = carrier.parseWebhook(request.headers, raw);
      } catch (error) {
        if (error instanceof CarrierAuthError) throw unauthorized('The event is not signed by this carrier.');
        throw new AppError(400, 'The event body is not one this carrier sends.');
      }
      const outcome = await recordTrackingEvents(ctx, carrier.id, events);
      return { received: events.length, recorded: outcome.recorded };
    },
    {
      parse: 'none',
      response: { 200: CarrierEventsAnswer, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 413: ErrorBody },
      detail: {
        summary: 'Tracking events from a carrier',
        description:
          'The configured carrier posts its tracking events here, authenticated the way that carrier signs or tokens them (401 otherwise; the embedded carrier takes events from the CLI only, so it is always 401). Each event is recorded once, a late one never moves a parcel back, and the first pickup gives the request its shipping details. 404 for a carrier that is not the configured one. `current` stands for the configured carrier (Shiprocket refuses webhook addresses containing its name).',
      },
    },
  );

  return new Elysia().use(customer).use(returns).use(carriers);
}
