import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import { CarrierUnavailable } from '#api/integrations/carriers/types.ts';
import { recordTrackingEvents } from './tracking.ts';

/**
 * The carrier-tracking job: asks the carrier for the events of parcels whose webhook is late
 * (nothing heard for `lateAfterMs`), not yet delivered and booked in the last 30 days. A carrier
 * without polling (embedded) answers nothing. Events already heard are recorded once as always.
 */
const DEFAULT_LATE_AFTER_MS = 60 * 60_000;
const BATCH = 100;

export async function pollLateTracking(ctx: AppContext, options: { lateAfterMs?: number } = {}): Promise<{ polled: number; recorded: number }> {
  const carrier = ctx.carrier;
  if (!carrier) return { polled: 0, recorded: 0 };
  const lateAfterSeconds = Math.round((options.lateAfterMs ?? DEFAULT_LATE_AFTER_MS) / 1000);
  const due = await ctx.db
    .selectFrom('shipments')
    .select('tracking_number')
    .where('carrier', '=', carrier.id)
    .where('state', '=', 'booked')
    .where((eb) => eb.or([eb('latest_status', 'is', null), eb('latest_status', 'not in', ['delivered'])]))
    .where('created_at', '>', sql<Date>`now() - interval '30 days'`)
    .where(sql<boolean>`coalesce(latest_status_at, created_at) <= now() - make_interval(secs => ${lateAfterSeconds}::int)`)
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
