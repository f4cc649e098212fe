import type { TrackingStatus } from './types.ts';

/**
 * Shiprocket's shipment statuses as our tracking steps: plain data, no I/O.
 *
 * Shiprocket numbers statuses in two tables (apidocs.shiprocket.in, "Shipment Status Codes" of the
 * Tracking section): the shipment table, carried by a webhook's `shipment_status_id`, by each scan's
 * `sr-status` and by `tracking_data.shipment_status`; and the order table, carried by
 * `current_status_id` (In Transit is 18 in the first and 20 in the second, as the documented
 * sample webhook shows). Only the shipment table is read here; `current_status_id` is never mapped.
 * The labels (`sr-status-label`, `shipment_status`, `current_status`: 'PICKED UP', 'IN TRANSIT') are
 * the fallback when an id is missing or unknown.
 *
 * Statuses before the pickup (AWB assigned, pickup scheduled, out for pickup) and a pickup or
 * delivery that merely failed once (pickup exception or error, undelivered: the courier tries again)
 * are not steps of ours and map to nothing: they are ignored. For a return the origin is the
 * customer, so RTO ("return to origin") means the parcel is going back to them: failed.
 */
export const SHIPMENT_STATUS_IDS: Readonly<Record<number, TrackingStatus>> = {
  42: 'picked_up', // Picked Up
  51: 'picked_up', // Handover to Courier
  6: 'in_transit', // Shipped (the origin hub's in-scan, after the pickup)
  18: 'in_transit', // In Transit
  22: 'in_transit', // Delayed
  38: 'in_transit', // Reached at Destination Hub
  39: 'in_transit', // Misrouted
  48: 'in_transit', // Reached Warehouse
  17: 'out_for_delivery', // Out For Delivery
  7: 'delivered', // Delivered
  8: 'failed', // Cancelled
  12: 'failed', // Lost
  24: 'failed', // Destroyed
  25: 'failed', // Damaged
  45: 'failed', // Cancelled before Dispatched
  9: 'failed', // RTO Initiated
  10: 'failed', // RTO Delivered
  46: 'failed', // RTO In Transit
};

/** The same steps by Shiprocket's label, upper-case with single spaces. */
export const SHIPMENT_STATUS_LABELS: Readonly<Record<string, TrackingStatus>> = {
  'PICKED UP': 'picked_up',
  'PICKUP DONE': 'picked_up',
  'HANDOVER TO COURIER': 'picked_up',
  SHIPPED: 'in_transit',
  'IN TRANSIT': 'in_transit',
  DELAYED: 'in_transit',
  'REACHED AT DESTINATION HUB': 'in_transit',
  'REACHED DESTINATION HUB': 'in_transit',
  MISROUTED: 'in_transit',
  'REACHED WAREHOUSE': 'in_transit',
  'OUT FOR DELIVERY': 'out_for_delivery',
  DELIVERED: 'delivered',
  CANCELED: 'failed',
  CANCELLED: 'failed',
  LOST: 'failed',
  DESTROYED: 'failed',
  DAMAGED: 'failed',
  'CANCELLED BEFORE DISPATCHED': 'failed',
  'RTO INITIATED': 'failed',
  'RTO DELIVERED': 'failed',
  'RTO IN TRANSIT': 'failed',
};

const normalLabel = (label: string) => label.trim().replace(/[\s_]+/g, ' ').toUpperCase();

/** A shipment-table id (number or digits) and/or label as our step; null when it is not one of ours. */
export function shiprocketStatus(id: unknown, label: unknown): TrackingStatus | null {
  const code = typeof id === 'number' ? id : typeof id === 'string' && /^\d{1,4}$/.test(id.trim()) ? Number(id) : null;
  if (code !== null && code in SHIPMENT_STATUS_IDS) return SHIPMENT_STATUS_IDS[code]!;
  if (typeof label === 'string' && label.trim()) return SHIPMENT_STATUS_LABELS[normalLabel(label)] ?? null;
  return null;
}

/** 'OUT FOR DELIVERY' → 'Out for delivery': Shiprocket's words, readable on a timeline. */
export function readableLabel(label: unknown): string | null {
  if (typeof label !== 'string') return null;
  const words = label.trim().replace(/[\s_]+/g, ' ').toLowerCase();
  if (!words || words === 'na') return null;
  return words[0]!.toUpperCase() + words.slice(1);
}

/**
 * Shiprocket's times are India time without an offset, in two shapes: '2023-05-19 11:59:16' (scans,
 * tracking) and '23 05 2023 11:43:52' (a webhook's `current_timestamp`). Null when neither.
 */
export function shiprocketTime(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  const dmy = iso ? null : /^(\d{2})[ -](\d{2})[ -](\d{4}) (\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (!iso && !dmy) return null;
  const [y, mo, d] = iso ? [iso[1], iso[2], iso[3]] : [dmy![3], dmy![2], dmy![1]];
  const [h, mi, s] = iso ? [iso[4], iso[5], iso[6]] : [dmy![4], dmy![5], dmy![6]];
  const parts = [y, mo, d, h, mi, s ?? '0'].map(Number) as [number, number, number, number, number, number];
  const local = new Date(Date.UTC(parts[0], parts[1] - 1, parts[2], parts[3], parts[4], parts[5]));
  // Date.UTC rolls 30 February over into March: a real time reads back as written
  const same = local.getUTCFullYear() === parts[0] && local.getUTCMonth() === parts[1] - 1 && local.getUTCDate() === parts[2] &&
    local.getUTCHours() === parts[3] && local.getUTCMinutes() === parts[4] && local.getUTCSeconds() === parts[5];
  return same ? new Date(local.getTime() - IST_OFFSET_MS) : null;
}

const IST_OFFSET_MS = 330 * 60_000;
