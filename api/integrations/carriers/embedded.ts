import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';
import { CarrierAuthError, type Carrier, type CreatedShipment, type OutboundShipmentInput, type ReturnShipmentInput, type TrackingEvent } from './types.ts';

/**
 * The built-in carrier for the demo and tests: it books nothing outside, issues its own AWB numbers
 * (a database sequence, so unique) and prints our own label page (labelPdf null). Its tracking events
 * come from `swappoints shipments event`, not from a webhook, so every webhook is refused.
 */

export const EMBEDDED_CARRIER_NAME = 'SwapPoints Parcels';
/** Not hex, so an AWB is never read as a slip reference (SP- and ten hex digits) at the receiving desk. */
const AWB_PREFIX = 'SWP';

/** The Luhn check digit of a string of digits. */
export function luhnDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

export function embeddedAwb(serial: number | bigint | string): string {
  const digits = String(serial).padStart(9, '0');
  return `${AWB_PREFIX}${digits}${luhnDigit(digits)}`;
}

/** An AWB this carrier could have issued: the prefix, nine digits and a right check digit. */
export function isEmbeddedAwb(code: string): boolean {
  const match = /^SWP(\d{9,})(\d)$/.exec(code.trim().toUpperCase());
  return match !== null && luhnDigit(match[1]!) === Number(match[2]);
}

export function embeddedCarrier(db: Db): Carrier {
  async function nextAwb(): Promise<string> {
    const { rows } = await sql<{ serial: string }>`select nextval('embedded_awb_seq')::text as serial`.execute(db);
    return embeddedAwb(rows[0]!.serial);
  }
  return {
    id: 'embedded',
    async createReturnShipment(input: ReturnShipmentInput): Promise<CreatedShipment> {
      return { carrierName: EMBEDDED_CARRIER_NAME, trackingNumber: await nextAwb(), carrierShipmentId: `embedded:${input.requestId}`, labelPdf: null };
    },
    async createOutboundShipment(input: OutboundShipmentInput): Promise<CreatedShipment> {
      return { carrierName: EMBEDDED_CARRIER_NAME, trackingNumber: await nextAwb(), carrierShipmentId: `embedded:out:${input.requestId}`, labelPdf: null };
    },
    parseWebhook(): TrackingEvent[] {
      throw new CarrierAuthError('The embedded carrier takes its events from the CLI (swappoints shipments event), not from webhooks.');
    },
    async track(): Promise<TrackingEvent[]> {
      return [];
    },
  };
}
