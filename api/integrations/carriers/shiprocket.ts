import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Logger } from '#api/lib/log.ts';
import { countryCode } from '#api/modules/warehouses/rules.ts';
import type { Settings } from '#api/settings.ts';
import { createShiprocketClient, ShiprocketFailure, type ShiprocketClient } from './shiprocket-client.ts';
import { readableLabel, shiprocketStatus, shiprocketTime } from './shiprocket-status.ts';
import { CARRIER_MESSAGES } from './messages.ts';
import { CarrierAuthError, CarrierUnavailable, type Carrier, type CreatedShipment, type ReturnShipmentInput, type TrackingEvent } from './types.ts';

/**
 * CARRIER=shiprocket: return parcels booked through Shiprocket's API v1 (https://apidocs.shiprocket.in,
 * cross-checked with the Go client github.com/venom90/shiprocket-go: returns/, courier/, shipment/, auth/).
 *   POST /auth/login {email, password} → {token}                      (shiprocket-client.ts)
 *   POST /orders/create/return {order_id, order_date, pickup_* (the customer), shipping_* (the
 *     warehouse), order_items, payment_method, sub_total, length, breadth, height, weight}
 *     → {order_id, shipment_id, status, status_code}
 *   POST /courier/assign/awb {shipment_id, is_return: 1} → {awb_assign_status, response.data.awb_code, courier_name}
 *   POST /courier/generate/label {shipment_id: [id]} → {label_created, label_url}; the PDF is read from label_url
 *   GET  /courier/track/awb/{awb} → tracking_data.shipment_track_activities[] {date, activity, location, sr-status, sr-status-label}
 *   POST /orders/cancel {ids: [order_id]}: a booking that failed half-way is cancelled, so nothing is left behind
 * The tracking webhook (Settings → API → Webhooks in the panel) POSTs JSON with the panel's security
 * token in `x-api-key` and no signature: awb, current_status(_id), shipment_status(_id),
 * current_timestamp, scans[] {date, status, activity, location, sr-status, sr-status-label}.
 * Status ids and labels are mapped in shiprocket-status.ts.
 */

/** What the customer reads when Shiprocket cannot book or track (carriers/messages.ts, beside the other carriers' words). */
export const SHIPROCKET_MESSAGES = CARRIER_MESSAGES;

export interface ParcelDefaults {
  lengthCm: number;
  breadthCm: number;
  heightCm: number;
  weightKg: number;
  /** the declared value in rupees (Shiprocket requires a sub_total; a return is prepaid, nothing is collected) */
  declaredValue: number;
}

/** A boxed printer part: Shiprocket needs dimensions and weight to pick a courier; the courier weighs it again. */
export const DEFAULT_PARCEL: ParcelDefaults = { lengthCm: 30, breadthCm: 20, heightCm: 15, weightKg: 1, declaredValue: 500 };

/** What is not a setting: the logger for the operator's detail, and what tests replace. */
export interface ShiprocketExtras {
  fetch?: typeof fetch;
  now?: () => number;
  log?: Pick<Logger, 'warn'>;
  parcel?: Partial<ParcelDefaults>;
}

export type ShiprocketOptions = Settings['shiprocket'] & ShiprocketExtras;

interface CreatedReturn { order_id?: unknown; shipment_id?: unknown }
interface AssignedAwb {
  awb_assign_status?: unknown;
  message?: unknown;
  response?: { data?: { awb_code?: unknown; courier_name?: unknown; awb_assign_error?: unknown } };
}
interface GeneratedLabel { label_created?: unknown; label_url?: unknown }
interface Scan { date?: unknown; activity?: unknown; location?: unknown; 'sr-status'?: unknown; 'sr-status-label'?: unknown }
interface TrackingAnswer { tracking_data?: { track_status?: unknown; shipment_track_activities?: unknown } }

const sameSecret = (given: string, expected: string) =>
  timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());

/** The 10-digit national number Shiprocket takes, from a checked Indian mobile (+91…, 0…, or bare). */
function nationalPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (digits.length === 12 && digits.startsWith('91')) return digits.slice(2);
  if (digits.length === 11 && digits.startsWith('0')) return digits.slice(1);
  return digits;
}

const countryName = (country: string) => (countryCode(country) === 'IN' ? 'India' : country);
const text = (value: unknown) => (typeof value === 'string' && value.trim() && value.trim() !== 'NA' ? value.trim() : null);

/** India time as Shiprocket's order_date takes it: '2026-11-25 18:40'. */
function indiaDate(ms: number): string {
  return new Date(ms + 330 * 60_000).toISOString().slice(0, 16).replace('T', ' ');
}

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

  /** The customer's sentence for a failure; the operator's detail goes to the log. */
  function unavailable(error: unknown, purpose: 'booking' | 'tracking'): never {
    if (!(error instanceof ShiprocketFailure)) throw error;
    options.log?.warn('Shiprocket request failed', { step: error.step, kind: error.kind, status: error.status, detail: error.detail });
    if (error.kind === 'timeout' || error.kind === 'unreachable') {
      throw new CarrierUnavailable(purpose === 'tracking' ? SHIPROCKET_MESSAGES.tracking : SHIPROCKET_MESSAGES.timeout, 503);
    }
    if (purpose === 'tracking') throw new CarrierUnavailable(SHIPROCKET_MESSAGES.tracking, 502);
    const clientError = error.kind === 'refused' && error.status !== undefined && error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 429;
    if (error.step === 'return order' && clientError) throw new CarrierUnavailable(SHIPROCKET_MESSAGES.address, 502);
    if (error.step === 'AWB assignment' && error.kind === 'refused' && (clientError || error.status === 200)) throw new CarrierUnavailable(SHIPROCKET_MESSAGES.noCourier, 502);
    throw new CarrierUnavailable(SHIPROCKET_MESSAGES.failed, 502);
  }

  async function book(input: ReturnShipmentInput, orderId: string, created: { srOrderId?: number }): Promise<CreatedShipment> {
    const w = input.deliverTo;
    const order = await client.call<CreatedReturn>('return order', 'POST', '/orders/create/return', {
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
      order_items: [{ name: input.productName.slice(0, 200), sku: input.reference, units: 1, selling_price: parcel.declaredValue }],
      payment_method: 'Prepaid',
      sub_total: parcel.declaredValue,
      length: parcel.lengthCm,
      breadth: parcel.breadthCm,
      height: parcel.heightCm,
      weight: parcel.weightKg,
    });
    if (typeof order.order_id !== 'number' || typeof order.shipment_id !== 'number') {
      throw new ShiprocketFailure('return order', 'garbage', 'the answer holds no order_id and shipment_id', 200);
    }
    created.srOrderId = order.order_id;
    const awb = await client.call<AssignedAwb>('AWB assignment', 'POST', '/courier/assign/awb', { shipment_id: order.shipment_id, is_return: 1 });
    const data = awb.response?.data;
    if (awb.awb_assign_status !== 1 || typeof data?.awb_code !== 'string' || !data.awb_code) {
      const reason = text(data?.awb_assign_error) ?? text(awb.message) ?? 'no AWB in the answer';
      throw new ShiprocketFailure('AWB assignment', 'refused', client.redact(reason), 200);
    }
    const label = await client.call<GeneratedLabel>('label', 'POST', '/courier/generate/label', { shipment_id: [order.shipment_id] });
    if (label.label_created !== 1 || typeof label.label_url !== 'string' || !/^https?:\/\//.test(label.label_url)) {
      throw new ShiprocketFailure('label', 'refused', 'the label was not created', 200);
    }
    const pdf = await client.download('label download', label.label_url);
    if (new TextDecoder().decode(pdf.subarray(0, 5)) !== '%PDF-') throw new ShiprocketFailure('label download', 'garbage', 'the label is not a PDF');
    const courier = text(data.courier_name);
    return {
      carrierName: courier ? `Shiprocket (${courier})` : 'Shiprocket',
      trackingNumber: data.awb_code,
      carrierShipmentId: `${order.order_id}/${order.shipment_id}`,
      labelPdf: pdf,
    };
  }

  return {
    id: 'shiprocket',
    async createReturnShipment(input) {
      if (!input.deliverTo.contactPhone?.trim()) {
        options.log?.warn('Shiprocket needs a contact phone for the warehouse a return goes to', { warehouseId: input.deliverTo.id });
        throw new CarrierUnavailable(SHIPROCKET_MESSAGES.failed, 502);
      }
      // an order id Shiprocket has seen (cancelled ones too) is refused, so each attempt has its own
      const orderId = `${input.reference}-${now().toString(36)}${randomBytes(2).toString('hex')}`.toUpperCase();
      const created: { srOrderId?: number } = {};
      try {
        return await book(input, orderId, created);
      } catch (error) {
        if (created.srOrderId !== undefined) {
          await client.call('cancellation', 'POST', '/orders/cancel', { ids: [created.srOrderId] }).catch((cancelError: unknown) => {
            options.log?.warn('A half-booked Shiprocket return could not be cancelled; cancel it in the panel', {
              order: orderId,
              shiprocketOrderId: created.srOrderId,
              detail: cancelError instanceof Error ? client.redact(cancelError.message) : 'unknown',
            });
          });
        }
        return unavailable(error, 'booking');
      }
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
