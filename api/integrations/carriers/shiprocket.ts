import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Logger } from '#api/lib/log.ts';
import type { Settings } from '#api/settings.ts';
import { createShiprocketClient, ShiprocketFailure, type ShiprocketClient } from './shiprocket-client.ts';
import { bookForward } from './shiprocket-forward.ts';
import { readableLabel, shiprocketStatus, shiprocketTime } from './shiprocket-status.ts';
import { CARRIER_MESSAGES } from './messages.ts';
import { assignAwbAndLabel, countryName, createdOrder, DEFAULT_PARCEL, indiaDate, nationalPhone, parcelFields, text, type ParcelDefaults } from './shiprocket-steps.ts';
import { CarrierAuthError, CarrierUnavailable, type Carrier, type CreatedShipment, type ReturnShipmentInput, type TrackingEvent } from './types.ts';

export { DEFAULT_PARCEL, type ParcelDefaults } from './shiprocket-steps.ts';

/**
 * CARRIER=shiprocket: parcels booked through Shiprocket's API v1 (https://apidocs.shiprocket.in,
 * cross-checked with the Go client github.com/venom90/shiprocket-go: returns/, courier/, shipment/, auth/).
 * Prepaid labels are return orders (below); a declined offer's item sent back is a forward order
 * from the warehouse (shiprocket-forward.ts). Both cancel a half-made order on failure.
 *   POST /auth/login {email, password} → {token}                      (shiprocket-client.ts)
 *   POST /orders/create/return {order_id, order_date, pickup_* (the customer), shipping_* (the
 *     warehouse), order_items, payment_method, sub_total, length, breadth, height, weight}
 *     → {order_id, shipment_id, status, status_code}
 *   POST /courier/assign/awb {shipment_id, is_return: 1} → {awb_assign_status, response.data.awb_code, courier_name}
 *   POST /courier/generate/label {shipment_id: [id]} → {label_created, label_url}; the PDF is read from label_url
 *     (these two in shiprocket-steps.ts)
 *   GET  /courier/track/awb/{awb} → tracking_data.shipment_track_activities[] {date, activity, location, sr-status, sr-status-label}
 *   POST /orders/cancel {ids: [order_id]}: a booking that failed half-way is cancelled, so nothing is left behind
 * The tracking webhook (Settings → API → Webhooks in the panel) POSTs JSON with the panel's security
 * token in `x-api-key` and no signature: awb, current_status(_id), shipment_status(_id),
 * current_timestamp, scans[] {date, status, activity, location, sr-status, sr-status-label}.
 * Status ids and labels are mapped in shiprocket-status.ts.
 */

/** What the customer reads when Shiprocket cannot book or track (carriers/messages.ts, beside the other carriers' words). */
export const SHIPROCKET_MESSAGES = CARRIER_MESSAGES;

/** A declined offer's item sent back (the admin reads these): what went wrong, and that nothing was booked. */
export const SHIPROCKET_RETURN_MESSAGES = {
  timeout: 'The courier service did not answer in time, so the return was not booked. Please try again in a few minutes.',
  address: "The courier service could not book a delivery to the customer's return address. Check its PIN code and phone number, or ship the item yourself and record its tracking number.",
  noPhone: 'The courier service needs a phone number for the delivery, and the customer gave none. Ship the item yourself and record its tracking number.',
  warehouse: "The courier service could not use this request's warehouse as the pickup address (it needs the warehouse's contact phone, and Shiprocket may ask to verify a new pickup address in its panel). Nothing was booked.",
  noCourier: 'No courier can take this return from the warehouse to the return address right now, so nothing was booked. Please try again later or ship the item yourself.',
  failed: 'The courier service could not book the return right now, so nothing was booked. Please try again later or ship the item yourself.',
} as const;

/** What is not a setting: the logger for the operator's detail, and what tests replace. */
export interface ShiprocketExtras {
  fetch?: typeof fetch;
  now?: () => number;
  log?: Pick<Logger, 'warn'>;
  parcel?: Partial<ParcelDefaults>;
}

export type ShiprocketOptions = Settings['shiprocket'] & ShiprocketExtras;

interface Scan { date?: unknown; activity?: unknown; location?: unknown; 'sr-status'?: unknown; 'sr-status-label'?: unknown }
interface TrackingAnswer { tracking_data?: { track_status?: unknown; shipment_track_activities?: unknown } }

const sameSecret = (given: string, expected: string) =>
  timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());

/** One scan (or the webhook's own current status) as our event; null when its status is not one of our steps. */
function trackingEvent(awb: string, scan: Scan, at: Date | null): TrackingEvent | null {
  const status = shiprocketStatus(scan['sr-status'], scan['sr-status-label']);
  if (!status || !at) return null;
  return {
    trackingNumber: awb,
    status,
    at,
    // the same scan sent twice (or read again by polling) has the same step and time
    eventKey: `${awb}:${status}:${at.toISOString()}`,
    description: readableLabel(scan['sr-status-label']) ?? text(scan.activity)?.slice(0, 200) ?? null,
    location: text(scan.location)?.slice(0, 200) ?? null,
  };
}

/** The events of a webhook body: each scan, and the current status when no scan carries it. */
export function webhookEvents(body: unknown): TrackingEvent[] {
  if (!body || typeof body !== 'object') return [];
  const payload = body as Record<string, unknown>;
  const awb = typeof payload.awb === 'string' || typeof payload.awb === 'number' ? String(payload.awb).trim() : '';
  if (!awb) return [];
  const scans = Array.isArray(payload.scans) ? (payload.scans as unknown[]).filter((s): s is Scan => !!s && typeof s === 'object') : [];
  const events = scans.map((scan) => trackingEvent(awb, scan, shiprocketTime(scan.date))).filter((e): e is TrackingEvent => e !== null);
  const current = trackingEvent(
    awb,
    { 'sr-status': payload.shipment_status_id, 'sr-status-label': payload.shipment_status ?? payload.current_status },
    shiprocketTime(payload.current_timestamp),
  );
  if (current && !events.some((e) => e.status === current.status)) events.push(current);
  return events;
}

/** `shiprocketCarrier(settings.shiprocket, { log })`, or everything in one object. */
export function shiprocketCarrier(settings: ShiprocketOptions, extras: ShiprocketExtras = {}): Carrier {
  const options: ShiprocketOptions = { ...settings, ...extras };
  const { email, password, webhookToken } = options;
  if (!email || !password || !webhookToken) throw new Error('shiprocketCarrier needs SHIPROCKET_EMAIL, SHIPROCKET_PASSWORD and SHIPROCKET_WEBHOOK_TOKEN (loadSettings checks them with CARRIER=shiprocket).');
  const now = options.now ?? Date.now;
  const parcel = { ...DEFAULT_PARCEL, ...options.parcel };
  const client: ShiprocketClient = createShiprocketClient({ email, password, baseUrl: options.baseUrl, timeoutMs: options.timeoutMs, fetch: options.fetch, now });

  const knownPickups = new Set<string>();

  /** The person's sentence for a failure (the customer's for a label, the admin's for a return); the operator's detail goes to the log. */
  function unavailable(error: unknown, purpose: 'label' | 'return' | 'tracking'): never {
    if (!(error instanceof ShiprocketFailure)) throw error;
    options.log?.warn('Shiprocket request failed', { step: error.step, kind: error.kind, status: error.status, detail: error.detail });
    const says = purpose === 'return' ? SHIPROCKET_RETURN_MESSAGES : SHIPROCKET_MESSAGES;
    if (error.kind === 'timeout' || error.kind === 'unreachable') {
      throw new CarrierUnavailable(purpose === 'tracking' ? SHIPROCKET_MESSAGES.tracking : says.timeout, 503);
    }
    if (purpose === 'tracking') throw new CarrierUnavailable(SHIPROCKET_MESSAGES.tracking, 502);
    const clientError = error.kind === 'refused' && error.status !== undefined && error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 429;
    if ((error.step === 'return order' || error.step === 'forward order') && clientError) throw new CarrierUnavailable(says.address, 502);
    if (error.step === 'pickup location' && error.kind === 'refused') throw new CarrierUnavailable(SHIPROCKET_RETURN_MESSAGES.warehouse, 502);
    if (error.step === 'AWB assignment' && error.kind === 'refused' && (clientError || error.status === 200)) throw new CarrierUnavailable(says.noCourier, 502);
    throw new CarrierUnavailable(says.failed, 502);
  }

  async function book(input: ReturnShipmentInput, orderId: string, created: { srOrderId?: number }) {
    const w = input.deliverTo;
    const order = createdOrder(
      'return order',
      await client.call('return order', 'POST', '/orders/create/return', {
        order_id: orderId,
        order_date: indiaDate(now()),
        pickup_customer_name: input.pickup.name,
        pickup_last_name: '',
        pickup_address: input.pickup.addressLine1,
        pickup_address_2: input.pickup.addressLine2 ?? '',
        pickup_city: input.pickup.city,
        pickup_state: input.pickup.state,
        pickup_country: 'India',
        pickup_pincode: input.pickup.postalCode,
        pickup_email: input.customerEmail,
        pickup_phone: nationalPhone(input.pickup.phone),
        pickup_isd_code: '91',
        shipping_customer_name: w.contactPerson ?? w.name,
        shipping_last_name: '',
        shipping_address: w.addressLine1,
        shipping_address_2: w.addressLine2 ?? '',
        shipping_city: w.city,
        shipping_state: w.state,
        shipping_country: countryName(w.country),
        shipping_pincode: w.postalCode,
        shipping_isd_code: '91',
        shipping_phone: nationalPhone(w.contactPhone ?? ''),
        ...parcelFields(parcel, input),
      }),
    );
    created.srOrderId = order.orderId;
    const booked = await assignAwbAndLabel(client, order.shipmentId, true);
    return { ...booked, carrierShipmentId: `${order.orderId}/${order.shipmentId}` };
  }

  /**
   * Runs one booking with an order id of its own (Shiprocket refuses an order id it has seen, cancelled
   * ones too) and cancels the order when a later step fails, so nothing is left half-made.
   */
  async function once(
    reference: string,
    purpose: 'label' | 'return',
    run: (orderId: string, created: { srOrderId?: number }) => Promise<{ awb: string; courier: string | null; pdf: Uint8Array; carrierShipmentId: string }>,
  ): Promise<CreatedShipment> {
    const orderId = `${reference}-${now().toString(36)}${randomBytes(2).toString('hex')}`.toUpperCase();
    const created: { srOrderId?: number } = {};
    try {
      const booked = await run(orderId, created);
      return { carrierName: booked.courier ? `Shiprocket (${booked.courier})` : 'Shiprocket', trackingNumber: booked.awb, carrierShipmentId: booked.carrierShipmentId, labelPdf: booked.pdf };
    } catch (error) {
      if (created.srOrderId !== undefined) {
        await client.call('cancellation', 'POST', '/orders/cancel', { ids: [created.srOrderId] }).catch((cancelError: unknown) => {
          options.log?.warn('A half-booked Shiprocket order could not be cancelled; cancel it in the panel', {
            order: orderId,
            shiprocketOrderId: created.srOrderId,
            detail: cancelError instanceof Error ? client.redact(cancelError.message) : 'unknown',
          });
        });
      }
      return unavailable(error, purpose);
    }
  }

  return {
    id: 'shiprocket',
    async createReturnShipment(input) {
      if (!input.deliverTo.contactPhone?.trim()) {
        options.log?.warn('Shiprocket needs a contact phone for the warehouse a return goes to', { warehouseId: input.deliverTo.id });
        throw new CarrierUnavailable(SHIPROCKET_MESSAGES.failed, 502);
      }
      return once(input.reference, 'label', (orderId, created) => book(input, orderId, created));
    },
    async createOutboundShipment(input) {
      if (!input.shipFrom.contactPhone?.trim()) {
        options.log?.warn('Shiprocket needs a contact phone for the warehouse a return leaves from', { warehouseId: input.shipFrom.id });
        throw new CarrierUnavailable(SHIPROCKET_RETURN_MESSAGES.warehouse, 502);
      }
      if (!input.deliverTo.phone?.trim()) throw new CarrierUnavailable(SHIPROCKET_RETURN_MESSAGES.noPhone, 502);
      return once(input.reference, 'return', (orderId, created) => bookForward({ client, parcel, now, accountEmail: email, knownPickups }, input, orderId, created));
    },
    parseWebhook(headers, rawBody) {
      const given = headers.get('x-api-key');
      if (!given || !sameSecret(given, webhookToken)) throw new CarrierAuthError('The x-api-key header does not hold the webhook token.');
      try {
        return webhookEvents(JSON.parse(rawBody));
      } catch {
        return [];
      }
    },
    async track(trackingNumber) {
      let answer: TrackingAnswer;
      try {
        answer = await client.call<TrackingAnswer>('tracking', 'GET', `/courier/track/awb/${encodeURIComponent(trackingNumber)}`);
      } catch (error) {
        // an AWB Shiprocket does not know yet has nothing to report
        if (error instanceof ShiprocketFailure && error.status === 404) return [];
        return unavailable(error, 'tracking');
      }
      const activities = answer.tracking_data?.shipment_track_activities;
      if (!Array.isArray(activities)) return [];
      return activities
        .filter((a): a is Scan => !!a && typeof a === 'object')
        .map((scan) => trackingEvent(trackingNumber, scan, shiprocketTime(scan.date)))
        .filter((e): e is TrackingEvent => e !== null);
    },
  };
}
