import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { Db } from '#api/db/connect.ts';
import type { TrackingEvent } from '#api/integrations/carriers/types.ts';
import { todayIn } from '#api/lib/days.ts';
import { enqueueMail } from '#api/modules/mail/service.ts';
import { queueWhatsApp } from '#api/modules/whatsapp/service.ts';
import { recordEvent, systemActor } from '#api/modules/requests/events.ts';
import { findRequest } from '#api/modules/requests/queries.ts';
import { recordShipping } from '#api/modules/requests/shipping.ts';
import { languageOf } from '#api/modules/users/queries.ts';
import { deliveredMail, pickedUpMail } from './mails.ts';
import { shipmentByTracking } from './queries.ts';
import { HAS_PARCEL, PICKED_UP_NOTE, TRACKING_STATUSES, trackingLabel, trackingRank } from './rules.ts';

/**
 * Tracking events from a carrier's webhook, its polling or (embedded) the CLI. Each is recorded once
 * (shipment_events is unique per shipment and event key), shows once on the request's timeline, and
 * moves the shipment's latest status only forward (a conditional update on the status's rank). For a
 * prepaid label (inbound), the first event that means the carrier has the parcel gives the request its
 * shipping details, through the same update the customer's form uses; the customer is mailed then and
 * at delivery. A return going back (outbound) only records its steps: the customer was mailed its
 * tracking number when it was booked, and reads the steps on the request page.
 */

export interface TrackingOutcome {
  recorded: number;
  /** tracking numbers no booked label of this carrier has */
  unknown: string[];
}

/** The status order as SQL: array_position(…, status) is a status's rank (see trackingRank). */
const ORDER = [...TRACKING_STATUSES].sort((a, b) => trackingRank(a) - trackingRank(b));
const rankSql = (value: unknown) => sql<number>`array_position(array[${sql.join(ORDER)}]::text[], ${value}::text)`;

export async function recordTrackingEvents(ctx: AppContext, carrierId: string, events: readonly TrackingEvent[]): Promise<TrackingOutcome> {
  const outcome: TrackingOutcome = { recorded: 0, unknown: [] };
  for (const event of events) {
    const shipment = await shipmentByTracking(ctx.db, carrierId, event.trackingNumber);
    if (!shipment) {
      outcome.unknown.push(event.trackingNumber);
      continue;
    }
    const recorded = await ctx.db.transaction().execute((trx) => recordOne(trx, ctx, shipment.id, event));
    if (recorded) outcome.recorded++;
  }
  if (outcome.recorded > 0) ctx.mailer.kick();
  return outcome;
}

async function recordOne(trx: Db, ctx: AppContext, shipmentId: string, event: TrackingEvent): Promise<boolean> {
  const inserted = await trx
    .insertInto('shipment_events')
    .values({
      shipment_id: shipmentId,
      event_key: event.eventKey,
      status: event.status,
      occurred_at: event.at,
      description: event.description,
      location: event.location,
    })
    .onConflict((oc) => oc.columns(['shipment_id', 'event_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return false;

  const moved = await trx
    .updateTable('shipments')
    .set({ latest_status: event.status, latest_status_at: event.at })
    .where('id', '=', shipmentId)
    .where((eb) => eb.or([eb('latest_status', 'is', null), eb(rankSql(eb.ref('latest_status')), '<', rankSql(event.status))]))
    .returningAll()
    .executeTakeFirst();
  const shipment = moved ?? (await trx.selectFrom('shipments').selectAll().where('id', '=', shipmentId).executeTakeFirstOrThrow());
  const request = await findRequest(trx, shipment.request_id);
  if (!request) return true;

  const where = event.location ? ` at ${event.location}` : '';
  const said = event.description ? `: ${event.description}` : '';
  await recordEvent(trx, {
    requestId: request.id,
    type: 'tracking',
    actor: systemActor,
    toStatus: event.status,
    note: `${shipment.direction === 'outbound' ? 'Return: ' : ''}${trackingLabel(shipment.direction, event.status)}${where} (${shipment.carrier_name}, ${shipment.tracking_number})${said}`,
  });
  if (shipment.direction === 'outbound') return true;

  const parcel = { requestId: request.id, productName: request.product_name, carrier: shipment.carrier_name!, trackingNumber: shipment.tracking_number! };
  if (HAS_PARCEL.includes(event.status)) {
    const shipped = await recordShipping(
      trx,
      request,
      { carrierName: parcel.carrier, trackingNumber: parcel.trackingNumber, shippingDate: todayIn(ctx.settings.shopTimeZone, event.at), notes: PICKED_UP_NOTE },
      systemActor,
    );
    if (shipped) {
      await enqueueMail(trx, pickedUpMail(request.customer_email, ctx.settings.publicUrl, parcel, await languageOf(trx, request.user_id)));
      await queueWhatsApp(trx, ctx, { userId: request.user_id, template: 'picked_up', params: { product: request.product_name, carrier: parcel.carrier, link: `${ctx.settings.publicUrl}/exchange/${request.id}` } });
    }
  }
  if (moved && event.status === 'delivered') await enqueueMail(trx, deliveredMail(request.customer_email, ctx.settings.publicUrl, parcel, await languageOf(trx, request.user_id)));
  return true;
}
