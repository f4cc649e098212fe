import { createHash } from 'node:crypto';
import type { WarehouseSnapshot } from '#api/db/types.ts';
import { ShiprocketFailure, type ShiprocketClient } from './shiprocket-client.ts';
import { assignAwbAndLabel, countryName, createdOrder, indiaDate, nationalPhone, parcelFields, type ParcelDefaults } from './shiprocket-steps.ts';
import type { OutboundShipmentInput } from './types.ts';

/**
 * The outbound direction at Shiprocket: a declined offer's item sent from the request's warehouse
 * back to the customer, as a forward ("adhoc") order (apidocs.shiprocket.in: Create Custom Order,
 * Pickup Addresses, Couriers):
 *   GET  /settings/company/pickup → data.shipping_address[] {pickup_location, …}
 *   POST /settings/company/addpickup {pickup_location (≤ 36 characters), name, email, phone, address,
 *     address_2, city, state, country, pin_code} → {success, pickup_id}
 *   POST /orders/create/adhoc {order_id, order_date, pickup_location, billing_* (the customer),
 *     shipping_is_billing: true, order_items, payment_method, sub_total, length, breadth, height, weight}
 *     → {order_id, shipment_id, status}
 *   POST /courier/assign/awb {shipment_id}, POST /courier/generate/label (shiprocket-steps.ts)
 *   POST /courier/generate/pickup {shipment_id: [id]} → {pickup_status: 1, response: {pickup_scheduled_date, …}};
 *     Shiprocket refuses a second request for the same shipment with "Already in Pickup Queue": asked for already
 * A forward order names its pickup by a nickname registered in the account, not by an address: each
 * warehouse address is registered once as "SwapPoints <hash of the address>", so an edited address
 * is a new pickup location and a request keeps the address it was approved with. Shiprocket may ask
 * the account owner to verify a new pickup address in its panel before its first pickup.
 */

export interface ForwardBooking {
  client: ShiprocketClient;
  parcel: ParcelDefaults;
  now: () => number;
  /** the Shiprocket API user's email: the pickup location's contact address (a warehouse has none of its own) */
  accountEmail: string;
  /** pickup locations known to exist in the account (for this process's life) */
  knownPickups: Set<string>;
}

interface PickupList { data?: { shipping_address?: unknown } }
interface AddedPickup { success?: unknown }
interface RequestedPickup { pickup_status?: unknown; message?: unknown }

/** The pickup location's nickname for a warehouse address: the same address, the same nickname. */
export function pickupNickname(w: WarehouseSnapshot): string {
  const address = [w.name, w.contactPerson, w.contactPhone, w.addressLine1, w.addressLine2, w.city, w.state, w.postalCode, w.country].map((v) => v ?? '').join('\n');
  return `SwapPoints ${createHash('sha256').update(address).digest('hex').slice(0, 12)}`;
}

async function pickupExists(client: ShiprocketClient, nickname: string): Promise<boolean> {
  const list = await client.call<PickupList>('pickup location', 'GET', '/settings/company/pickup');
  const addresses = Array.isArray(list.data?.shipping_address) ? (list.data.shipping_address as unknown[]) : [];
  return addresses.some((a) => !!a && typeof a === 'object' && (a as { pickup_location?: unknown }).pickup_location === nickname);
}

/** The warehouse's pickup location, registered when the account does not have it yet. */
async function ensurePickupLocation(deps: ForwardBooking, w: WarehouseSnapshot): Promise<string> {
  const nickname = pickupNickname(w);
  if (deps.knownPickups.has(nickname) || (await pickupExists(deps.client, nickname))) {
    deps.knownPickups.add(nickname);
    return nickname;
  }
  try {
    const added = await deps.client.call<AddedPickup>('pickup location', 'POST', '/settings/company/addpickup', {
      pickup_location: nickname,
      name: w.contactPerson ?? w.name,
      email: deps.accountEmail,
      phone: nationalPhone(w.contactPhone ?? ''),
      address: w.addressLine1,
      address_2: w.addressLine2 ?? '',
      city: w.city,
      state: w.state,
      country: countryName(w.country),
      pin_code: w.postalCode,
    });
    if (added.success !== true) throw new ShiprocketFailure('pickup location', 'refused', 'the pickup location was not added', 200);
  } catch (error) {
    // another booking may have added it a moment ago: Shiprocket refuses a nickname twice
    if (!(error instanceof ShiprocketFailure) || error.kind !== 'refused' || !(await pickupExists(deps.client, nickname))) throw error;
  }
  deps.knownPickups.add(nickname);
  return nickname;
}

/** Books the forward order; `created.srOrderId` is set as soon as Shiprocket holds an order, so a failure after it can cancel it. */
export async function bookForward(deps: ForwardBooking, input: OutboundShipmentInput, orderId: string, created: { srOrderId?: number }) {
  const { client, parcel } = deps;
  const pickupLocation = await ensurePickupLocation(deps, input.shipFrom);
  const to = input.deliverTo;
  const order = createdOrder(
    'forward order',
    await client.call('forward order', 'POST', '/orders/create/adhoc', {
      order_id: orderId,
      order_date: indiaDate(deps.now()),
      pickup_location: pickupLocation,
      billing_customer_name: to.name,
      billing_last_name: '',
      billing_address: to.addressLine1,
      billing_address_2: to.addressLine2 ?? '',
      billing_city: to.city,
      billing_pincode: to.postalCode,
      billing_state: to.state,
      billing_country: countryName(to.country),
      billing_email: input.customerEmail,
      billing_phone: nationalPhone(to.phone ?? ''),
      billing_isd_code: '91',
      shipping_is_billing: true,
      ...parcelFields(parcel, input),
    }),
  );
  created.srOrderId = order.orderId;
  const booked = await assignAwbAndLabel(client, order.shipmentId, false);
  try {
    const pickup = await client.call<RequestedPickup>('pickup request', 'POST', '/courier/generate/pickup', { shipment_id: [order.shipmentId] });
    if (pickup.pickup_status !== 1) throw new ShiprocketFailure('pickup request', 'refused', 'the pickup was not scheduled', 200);
  } catch (error) {
    if (!(error instanceof ShiprocketFailure && error.kind === 'refused' && /already in pickup queue/i.test(error.detail))) throw error;
  }
  return { ...booked, carrierShipmentId: `${order.orderId}/${order.shipmentId}` };
}
