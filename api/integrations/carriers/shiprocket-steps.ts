import { countryCode } from '#api/modules/warehouses/rules.ts';
import { ShiprocketFailure, type ShiprocketClient } from './shiprocket-client.ts';

/**
 * What both directions of a Shiprocket booking share (shiprocket.ts books returns to a warehouse,
 * shiprocket-forward.ts sends a declined offer's item back): the field formats Shiprocket takes and
 * the AWB-then-label steps every order goes through.
 */

export interface ParcelDefaults {
  lengthCm: number;
  breadthCm: number;
  heightCm: number;
  weightKg: number;
  /** the declared value in rupees (Shiprocket requires a sub_total; nothing is collected on delivery) */
  declaredValue: number;
}

/** A boxed printer part: Shiprocket needs dimensions and weight to pick a courier; the courier weighs it again. */
export const DEFAULT_PARCEL: ParcelDefaults = { lengthCm: 30, breadthCm: 20, heightCm: 15, weightKg: 1, declaredValue: 500 };

/** What every order carries about its parcel: the one item (the request's reference as SKU), prepaid, its declared value, size and weight. */
export function parcelFields(parcel: ParcelDefaults, item: { productName: string; reference: string }) {
  return {
    order_items: [{ name: item.productName.slice(0, 200), sku: item.reference, units: 1, selling_price: parcel.declaredValue }],
    payment_method: 'Prepaid',
    sub_total: parcel.declaredValue,
    length: parcel.lengthCm,
    breadth: parcel.breadthCm,
    height: parcel.heightCm,
    weight: parcel.weightKg,
  };
}

/** The 10-digit national number Shiprocket takes, from a checked Indian mobile (+91…, 0…, or bare). */
export function nationalPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (digits.length === 12 && digits.startsWith('91')) return digits.slice(2);
  if (digits.length === 11 && digits.startsWith('0')) return digits.slice(1);
  return digits;
}

export const countryName = (country: string) => (countryCode(country) === 'IN' ? 'India' : country);
export const text = (value: unknown) => (typeof value === 'string' && value.trim() && value.trim() !== 'NA' ? value.trim() : null);

/** India time as Shiprocket's order_date takes it: '2026-11-25 18:40'. */
export function indiaDate(ms: number): string {
  return new Date(ms + 330 * 60_000).toISOString().slice(0, 16).replace('T', ' ');
}

interface AssignedAwb {
  awb_assign_status?: unknown;
  message?: unknown;
  response?: { data?: { awb_code?: unknown; courier_name?: unknown; awb_assign_error?: unknown } };
}
interface GeneratedLabel { label_created?: unknown; label_url?: unknown }

export interface AwbAndLabel {
  awb: string;
  /** the courier Shiprocket chose, when it names one */
  courier: string | null;
  pdf: Uint8Array;
}

/**
 *   POST /courier/assign/awb {shipment_id, is_return: 1 for a return} → {awb_assign_status, response.data.awb_code, courier_name}
 *   POST /courier/generate/label {shipment_id: [id]} → {label_created, label_url}; the PDF is read from label_url
 */
export async function assignAwbAndLabel(client: ShiprocketClient, shipmentId: number, isReturn: boolean): Promise<AwbAndLabel> {
  const awb = await client.call<AssignedAwb>('AWB assignment', 'POST', '/courier/assign/awb', isReturn ? { shipment_id: shipmentId, is_return: 1 } : { shipment_id: shipmentId });
  const data = awb.response?.data;
  if (awb.awb_assign_status !== 1 || typeof data?.awb_code !== 'string' || !data.awb_code) {
    const reason = text(data?.awb_assign_error) ?? text(awb.message) ?? 'no AWB in the answer';
    throw new ShiprocketFailure('AWB assignment', 'refused', client.redact(reason), 200);
  }
  const label = await client.call<GeneratedLabel>('label', 'POST', '/courier/generate/label', { shipment_id: [shipmentId] });
  if (label.label_created !== 1 || typeof label.label_url !== 'string' || !/^https?:\/\//.test(label.label_url)) {
    throw new ShiprocketFailure('label', 'refused', 'the label was not created', 200);
  }
  const pdf = await client.download('label download', label.label_url);
  if (new TextDecoder().decode(pdf.subarray(0, 5)) !== '%PDF-') throw new ShiprocketFailure('label download', 'garbage', 'the label is not a PDF');
  return { awb: data.awb_code, courier: text(data.courier_name), pdf };
}

/** What an order-creating call answers: Shiprocket's own order and shipment ids. */
export function createdOrder(step: 'return order' | 'forward order', answer: { order_id?: unknown; shipment_id?: unknown }): { orderId: number; shipmentId: number } {
  if (typeof answer.order_id !== 'number' || typeof answer.shipment_id !== 'number') {
    throw new ShiprocketFailure(step, 'garbage', 'the answer holds no order_id and shipment_id', 200);
  }
  return { orderId: answer.order_id, shipmentId: answer.shipment_id };
}
