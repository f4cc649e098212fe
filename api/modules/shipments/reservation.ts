import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { Db } from '#api/db/connect.ts';
import type { ShipmentDirection, ShipmentRow } from '#api/db/types.ts';
import { BOOKING_LEASE_SECONDS, CarrierUnavailable, type Carrier, type CreatedShipment, type PickupAddress } from '#api/integrations/carriers/types.ts';
import { AppError } from '#api/lib/errors.ts';
import { bookedShipmentOf } from './queries.ts';

/**
 * One parcel per request and direction, although the carrier is called outside any transaction (a
 * prepaid label, service.ts; a return sent back, returns.ts). The shipment row is reserved first
 * ((request_id, direction) is unique: of two racing calls one reserves, the other waits for its
 * answer) and booked afterwards by a conditional update that only the reserving call can make, in
 * the same transaction as what the booking records (timeline, mails). A carrier failure deletes the
 * reservation: nothing is left half-made and a retry starts afresh. A reservation whose call died
 * with its process is taken over once it is older than BOOKING_LEASE_SECONDS.
 */

/** how long a second call waits for the first call's carrier before answering 503 */
const WAIT_FOR_OTHER_CALL_MS = 20_000;
const POLL_MS = 25;

export interface BookingOutcome {
  shipment: ShipmentRow;
  /** false: the request already had this parcel booked */
  created: boolean;
}

export interface Booking {
  requestId: string;
  direction: ShipmentDirection;
  carrier: Carrier;
  /** where the courier collects the parcel */
  pickup: PickupAddress;
  /** the 503's sentence when another call holds the reservation too long */
  busy: string;
  /** the 502's sentence when the carrier fails without a sentence of its own */
  failed: string;
  /**
   * first in the reservation's and in the booking's transaction: locks what the booking serialises
   * with (a return locks its request row), always before the shipments row, so two transactions never
   * wait for each other's lock
   */
  lock?: (trx: Db) => Promise<void>;
  /** in the reservation's transaction, after `lock` and before the row is written: throws to refuse (a 409) */
  check?: (trx: Db) => Promise<void>;
  /** asks the carrier to book the parcel */
  call: () => Promise<CreatedShipment>;
  /** in the booking's transaction, once the row is booked: the timeline and the mails; throws to roll it all back */
  record: (trx: Db, row: ShipmentRow, created: CreatedShipment) => Promise<void>;
}

export async function bookOnce(ctx: AppContext, booking: Booking): Promise<BookingOutcome> {
  const deadline = Date.now() + WAIT_FOR_OTHER_CALL_MS;
  for (;;) {
    const token = randomUUID();
    let reserved: string | undefined;
    try {
      reserved = await reserve(ctx, booking, token);
    } catch (refused) {
      // the check refuses once the call we waited for has booked (a return is then shipped): that booking is the answer
      const current = await bookedShipmentOf(ctx.db, booking.requestId, booking.direction);
      if (current) return { shipment: current, created: false };
      throw refused;
    }
    if (reserved) return book(ctx, booking, reserved, token);
    const current = await bookedShipmentOf(ctx.db, booking.requestId, booking.direction);
    if (current) return { shipment: current, created: false };
    if (Date.now() > deadline) throw new AppError(503, booking.busy);
    await Bun.sleep(POLL_MS);
  }
}

/** The shipment row for this call, inserted or taken over from a reservation past its lease; undefined when another call holds it. */
async function reserve(ctx: AppContext, booking: Booking, token: string): Promise<string | undefined> {
  const { pickup } = booking;
  const fields = {
    carrier: booking.carrier.id,
    reservation: token,
    pickup_name: pickup.name,
    pickup_phone: pickup.phone,
    pickup_line1: pickup.addressLine1,
    pickup_line2: pickup.addressLine2,
    pickup_city: pickup.city,
    pickup_state: pickup.state,
    pickup_postal_code: pickup.postalCode,
  };
  return ctx.db.transaction().execute(async (trx) => {
    await booking.lock?.(trx);
    await booking.check?.(trx);
    const row = await trx
      .insertInto('shipments')
      .values({ request_id: booking.requestId, direction: booking.direction, ...fields })
      .onConflict((oc) =>
        oc
          .columns(['request_id', 'direction'])
          .doUpdateSet({ ...fields, reserved_at: sql<Date>`now()` })
          .where('shipments.state', '=', 'booking')
          .where('shipments.reserved_at', '<', sql<Date>`now() - make_interval(secs => ${BOOKING_LEASE_SECONDS}::int)`),
      )
      .returning('id')
      .executeTakeFirst();
    return row?.id;
  });
}

const giveUp = (db: Db, shipmentId: string, token: string) =>
  db.deleteFrom('shipments').where('id', '=', shipmentId).where('reservation', '=', token).where('state', '=', 'booking').execute();

async function book(ctx: AppContext, booking: Booking, shipmentId: string, token: string): Promise<BookingOutcome> {
  const about = { carrier: booking.carrier.id, requestId: booking.requestId, direction: booking.direction };
  let created: CreatedShipment;
  try {
    created = await booking.call();
  } catch (error) {
    await giveUp(ctx.db, shipmentId, token);
    if (error instanceof CarrierUnavailable) throw new AppError(error.status, error.message);
    ctx.log.warn('carrier failed to book a shipment', { ...about, error: String(error) });
    throw new AppError(502, booking.failed);
  }
  let booked: ShipmentRow | undefined;
  try {
    booked = await ctx.db.transaction().execute(async (trx) => {
      await booking.lock?.(trx);
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
      if (row) await booking.record(trx, row, created);
      return row;
    });
  } catch (error) {
    await giveUp(ctx.db, shipmentId, token);
    ctx.log.warn('a shipment the carrier booked could not be recorded; cancel it with the carrier', { ...about, trackingNumber: created.trackingNumber, error: String(error) });
    throw error;
  }
  if (booked) {
    ctx.mailer.kick();
    return { shipment: booked, created: true };
  }
  // Our reservation outlived its lease and another call took it over: theirs is the parcel.
  ctx.log.warn('a shipment was booked after its reservation lapsed; the carrier holds an unused shipment', { ...about, trackingNumber: created.trackingNumber });
  const current = await bookedShipmentOf(ctx.db, booking.requestId, booking.direction);
  if (current) return { shipment: current, created: false };
  throw new AppError(503, booking.busy);
}
