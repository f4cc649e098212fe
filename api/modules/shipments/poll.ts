import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { Backlog } from '#api/jobs/backlog.ts';
import { CarrierUnavailable } from '#api/integrations/carriers/types.ts';
import { recordTrackingEvents } from './tracking.ts';

/**
 * The carrier-tracking job: asks the carrier for the events of parcels whose webhook is late
 * (nothing heard for `lateAfterMs`), not yet delivered and booked in the last 30 days. A carrier
 * without polling (embedded) answers nothing. Events already heard are recorded once as always.
 */
const DEFAULT_LATE_AFTER_SECONDS = 60 * 60;
const BATCH = 100;

/** When a parcel's webhook counts as late: `lateAfterSeconds` after the carrier was last heard of it (or it was booked). */
const lateAt = (lateAfterSeconds: number) => sql`coalesce(latest_status_at, created_at) + make_interval(secs => ${lateAfterSeconds}::int)`;

/**
 * The parcels the job watches, as /metrics counts them (api/jobs/backlog.ts): booked with the
 * carrier it asks, not delivered, booked in the last 30 days; due once late. The poll keeps no
 * failure: a carrier that does not answer leaves the parcel due for the next run, and a parcel
 * leaves the watch when delivered or 30 days after booking.
 */
export const TRACKING_BACKLOG: Backlog = {
  kind: 'carrier-tracking',
  table: 'shipments',
  waiting: ({ carrier }) =>
    sql<boolean>`(carrier = ${carrier} and state = 'booked' and (latest_status is null or latest_status <> 'delivered')
      and created_at > now() - interval '30 days')`,
  dueAt: lateAt(DEFAULT_LATE_AFTER_SECONDS),
  failed: sql<boolean>`false`,
};

export async function pollLateTracking(ctx: AppContext, options: { lateAfterMs?: number } = {}): Promise<{ polled: number; recorded: number }> {
  const carrier = ctx.carrier;
  if (!carrier) return { polled: 0, recorded: 0 };
  const lateAfterSeconds = options.lateAfterMs === undefined ? DEFAULT_LATE_AFTER_SECONDS : Math.round(options.lateAfterMs / 1000);
  const due = await ctx.db
    .selectFrom('shipments')
    .select('tracking_number')
    .where(TRACKING_BACKLOG.waiting({ carrier: carrier.id }))
    .where(sql<boolean>`${lateAt(lateAfterSeconds)} <= now()`)
    .orderBy('created_at')
    .limit(BATCH)
    .execute();
  let recorded = 0;
  for (const { tracking_number } of due) {
    try {
      const events = await carrier.track(tracking_number!);
      recorded += (await recordTrackingEvents(ctx, carrier.id, events)).recorded;
    } catch (error) {
      if (!(error instanceof CarrierUnavailable)) throw error;
      ctx.log.warn('carrier tracking poll failed; the next run tries again', { carrier: carrier.id, trackingNumber: tracking_number, error: error.message });
    }
  }
  return { polled: due.length, recorded };
}
