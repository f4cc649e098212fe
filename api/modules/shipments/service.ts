import type { AppContext } from '#api/context.ts';
import type { ExchangeRequestRow, WarehouseSnapshot } from '#api/db/types.ts';
import type { PickupAddress } from '#api/integrations/carriers/types.ts';
import { badRequest, conflict } from '#api/lib/errors.ts';
import { cleanText } from '#api/lib/text.ts';
import { enqueueMail } from '#api/modules/mail/service.ts';
import { queueWhatsApp } from '#api/modules/whatsapp/service.ts';
import { actorOf, recordEvent } from '#api/modules/requests/events.ts';
import { ownRequestOr404 } from '#api/modules/requests/queries.ts';
import { requestReference } from '#api/modules/requests/reference.ts';
import { languageOf } from '#api/modules/users/queries.ts';
import { labelReadyMail } from './mails.ts';
import type { LabelBody } from './model.ts';
import { bookedShipmentOf } from './queries.ts';
import { bookOnce, type BookingOutcome } from './reservation.ts';
import {
  ALREADY_SHIPPED,
  CARRIER_FAILED,
  LABEL_BUSY,
  LABEL_NEEDS_APPROVAL,
  LABELS_NOT_OFFERED,
  missingPickupFields,
  PICKUP_FIELDS,
  PICKUP_LIMITS,
  pickupAddressProblem,
  pickupFieldTooLong,
  REQUIRED_PICKUP_FIELDS,
  type PickupField,
} from './rules.ts';

/**
 * POST /api/exchange/{id}/label: a prepaid label, booked once per request however many calls race
 * (reservation.ts), with its timeline event, mail and WhatsApp message in the booking's transaction.
 */


/** The pickup form as the rules accept it: required fields, lengths, and PIN code and phone as for a warehouse. */
export function readPickup(ctx: AppContext, body: LabelBody): PickupAddress {
  const value = {} as Record<PickupField, string | null>;
  for (const field of PICKUP_FIELDS) value[field] = cleanText(body[field]);
  const missing = REQUIRED_PICKUP_FIELDS.filter((f) => !value[f]);
  if (missing.length > 0) throw badRequest(missingPickupFields(missing));
  for (const field of PICKUP_FIELDS) if ((value[field]?.length ?? 0) > PICKUP_LIMITS[field]) throw badRequest(pickupFieldTooLong(field));
  const problem = pickupAddressProblem({ postalCode: value.postalCode!, phone: value.phone! }, ctx.settings.shopCountry);
  if (problem) throw badRequest(problem.message);
  return {
    name: value.name!,
    phone: value.phone!.replace(/[\s().-]/g, ''),
    addressLine1: value.addressLine1!,
    addressLine2: value.addressLine2,
    city: value.city!,
    state: value.state!,
    postalCode: value.postalCode!.toUpperCase(),
  };
}

function refuseUnlabelable(request: ExchangeRequestRow): void {
  if (request.status !== 'approved' || !request.warehouse_snapshot) throw conflict(request.status === 'completed' ? ALREADY_SHIPPED : LABEL_NEEDS_APPROVAL);
  if (request.shipping_carrier !== null || request.transit_status !== null) throw conflict(ALREADY_SHIPPED);
}

export async function createLabel(ctx: AppContext, user: { id: string; email: string }, id: string | undefined, body: LabelBody): Promise<BookingOutcome> {
  const carrier = ctx.carrier;
  if (!carrier) throw conflict(LABELS_NOT_OFFERED);
  const request = await ownRequestOr404(ctx.db, user.id, id);
  const existing = await bookedShipmentOf(ctx.db, request.id);
  if (existing) return { shipment: existing, created: false };
  const pickup = readPickup(ctx, body);
  refuseUnlabelable(request);
  return bookOnce(ctx, {
    requestId: request.id,
    direction: 'inbound',
    carrier,
    pickup,
    busy: LABEL_BUSY,
    failed: CARRIER_FAILED,
    call: () =>
      carrier.createReturnShipment({
        requestId: request.id,
        reference: requestReference(request.id),
        pickup,
        deliverTo: request.warehouse_snapshot as WarehouseSnapshot,
        productName: request.product_name,
        customerEmail: request.customer_email,
      }),
    record: async (trx, _row, created) => {
      await recordEvent(trx, { requestId: request.id, type: 'label', actor: actorOf(user, 'customer'), note: `${created.carrierName}, tracking ${created.trackingNumber}` });
      await enqueueMail(
        trx,
        labelReadyMail(
          request.customer_email,
          ctx.settings.publicUrl,
          { requestId: request.id, productName: request.product_name, carrier: created.carrierName, trackingNumber: created.trackingNumber },
          await languageOf(trx, request.user_id),
        ),
      );
      await queueWhatsApp(trx, ctx, {
        userId: request.user_id,
        template: 'label_ready',
        params: { product: request.product_name, labelLink: `${ctx.settings.publicUrl}/api/exchange/${request.id}/label` },
      });
    },
  });
}
