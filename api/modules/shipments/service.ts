import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { ExchangeRequestRow, ShipmentRow, WarehouseSnapshot } from '#api/db/types.ts';
import { CarrierUnavailable, type Carrier, type CreatedShipment, type PickupAddress } from '#api/integrations/carriers/types.ts';
import { AppError, badRequest, conflict } from '#api/lib/errors.ts';
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
import {
  ALREADY_SHIPPED,
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
 * POST /api/exchange/{id}/label. The carrier is called outside any transaction, so the shipment row
 * is reserved first (request_id is unique: of two racing calls one reserves, the other waits for
 * its label) and booked afterwards by a conditional update that only the reserving call can make.
 * A carrier failure deletes the reservation: nothing is left half-made and a retry starts afresh.
 * A reservation whose call died with its process is taken over once it is older than the lease.
 */

const RESERVATION_LEASE_SECONDS = 120;
/** how long a second call waits for the first call's carrier before answering 503 */
const WAIT_FOR_OTHER_CALL_MS = 20_000;
const POLL_MS = 25;
const CARRIER_FAILED = 'The courier could not book your pickup just now. Please try again in a few minutes.';

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

export interface LabelOutcome {
  shipment: ShipmentRow;
  /** false: the request already had this label */
  created: boolean;
}

export async function createLabel(ctx: AppContext, user: { id: string; email: string }, id: string | undefined, body: LabelBody): Promise<LabelOutcome> {
  const carrier = ctx.carrier;
  if (!carrier) throw conflict(LABELS_NOT_OFFERED);
  const request = await ownRequestOr404(ctx.db, user.id, id);
  const existing = await bookedShipmentOf(ctx.db, request.id);
  if (existing) return { shipment: existing, created: false };
  const pickup = readPickup(ctx, body);
  refuseUnlabelable(request);

  const deadline = Date.now() + WAIT_FOR_OTHER_CALL_MS;
  for (;;) {
    const token = randomUUID();
    const reserved = await reserve(ctx, request.id, carrier.id, pickup, token);
    if (reserved) return book(ctx, carrier, request, user, pickup, reserved, token);
    const current = await ctx.db.selectFrom('shipments').selectAll().where('request_id', '=', request.id).executeTakeFirst();
    if (current?.state === 'booked') return { shipment: current, created: false };
    if (Date.now() > deadline) throw new AppError(503, LABEL_BUSY);
    await Bun.sleep(POLL_MS);
  }
}

/** The shipment row for this call, inserted or taken over from a reservation past its lease; undefined when another call holds it. */
async function reserve(ctx: AppContext, requestId: string, carrierId: string, pickup: PickupAddress, token: string): Promise<string | undefined> {
  const fields = {
    carrier: carrierId,
    reservation: token,
    pickup_name: pickup.name,
    pickup_phone: pickup.phone,
    pickup_line1: pickup.addressLine1,
    pickup_line2: pickup.addressLine2,
    pickup_city: pickup.city,
    pickup_state: pickup.state,
    pickup_postal_code: pickup.postalCode,
  };
  const row = await ctx.db
    .insertInto('shipments')
    .values({ request_id: requestId, ...fields })
    .onConflict((oc) =>
      oc
        .column('request_id')
        .doUpdateSet({ ...fields, reserved_at: sql<Date>`now()` })
        .where('shipments.state', '=', 'booking')
        .where('shipments.reserved_at', '<', sql<Date>`now() - ${sql.raw(`interval '${RESERVATION_LEASE_SECONDS} seconds'`)}`),
    )
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

async function book(
  ctx: AppContext,
  carrier: Carrier,
  request: ExchangeRequestRow,
  user: { id: string; email: string },
  pickup: PickupAddress,
  shipmentId: string,
  token: string,
): Promise<LabelOutcome> {
  let created: CreatedShipment;
  try {
    created = await carrier.createReturnShipment({
      requestId: request.id,
      reference: requestReference(request.id),
      pickup,
      deliverTo: request.warehouse_snapshot as WarehouseSnapshot,
      productName: request.product_name,
      customerEmail: request.customer_email,
    });
  } catch (error) {
    await ctx.db.deleteFrom('shipments').where('id', '=', shipmentId).where('reservation', '=', token).where('state', '=', 'booking').execute();
    if (error instanceof CarrierUnavailable) throw new AppError(error.status, error.message);
    ctx.log.warn('carrier failed to book a return shipment', { carrier: carrier.id, requestId: request.id, error: String(error) });
    throw new AppError(502, CARRIER_FAILED);
  }
  const booked = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('shipments')
      .set({
        state: 'booked',
        carrier_name: created.carrierName,
        tracking_number: created.trackingNumber,
        carrier_shipment_id: created.carrierShipmentId,
        label_pdf: created.labelPdf,
      })
      .where('id', '=', shipmentId)
      .where('reservation', '=', token)
      .where('state', '=', 'booking')
      .returningAll()
      .executeTakeFirst();
    if (!row) return undefined;
    await recordEvent(trx, {
      requestId: request.id,
      type: 'label',
      actor: actorOf(user, 'customer'),
      note: `${created.carrierName}, tracking ${created.trackingNumber}`,
    });
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
    return row;
  });
  if (booked) {
    ctx.mailer.kick();
    return { shipment: booked, created: true };
  }
  // Our reservation outlived its lease and another call took it over: theirs is the label.
  ctx.log.warn('a return shipment was booked after its reservation lapsed; the carrier holds an unused shipment', { carrier: carrier.id, trackingNumber: created.trackingNumber });
  const current = await bookedShipmentOf(ctx.db, request.id);
  if (current) return { shipment: current, created: false };
  throw new AppError(503, LABEL_BUSY);
}
