/**
 * The forward-order side of the fake Shiprocket (fake-shiprocket.ts serves them on its port): the calls
 * a declined offer's return makes, in Shiprocket's documented shapes (apidocs.shiprocket.in: Pickup
 * Addresses, Create Custom Order, Request for Shipment Pickup):
 *   GET /settings/company/pickup, POST /settings/company/addpickup, POST /orders/create/adhoc,
 *   POST /courier/generate/pickup (a second request for a shipment is Shiprocket's "Already in Pickup Queue").
 */

export const json = (body: unknown, status = 200) => Response.json(body, { status });
export const invalid = (errors: Record<string, string[]>) => json({ message: 'Oops! Invalid Data.', errors, status_code: 422 }, 422);

export interface FakeOrder {
  /** a prepaid label is a return order (customer → warehouse); a declined offer's item goes back as a forward order */
  kind: 'return' | 'forward';
  /** the order_id we sent */
  channelOrderId: string;
  /** Shiprocket's own ids */
  orderId: number;
  shipmentId: number;
  body: Record<string, unknown>;
  /** where the courier collects it and where it goes */
  pickupPincode: string;
  deliveryPincode: string;
  awb: string | null;
  courierName: string | null;
  labelUrl: string | null;
  pickupRequested: boolean;
  cancelled: boolean;
}

export interface FakePickupLocation {
  id: number;
  pickup_location: string;
  name: string;
  email: string;
  phone: string;
  address: string;
  address_2: string;
  city: string;
  state: string;
  country: string;
  pin_code: string;
}

/** A new order as Shiprocket holds it: its own ids, no AWB yet. */
export function newOrder(kind: FakeOrder['kind'], body: Record<string, unknown>, ids: () => number, pincodes: { pickup: string; delivery: string }): FakeOrder {
  const orderId = ids();
  return {
    kind,
    channelOrderId: String(body.order_id),
    orderId,
    shipmentId: ids(),
    body,
    pickupPincode: pincodes.pickup,
    deliveryPincode: pincodes.delivery,
    awb: null,
    courierName: null,
    labelUrl: null,
    pickupRequested: false,
    cancelled: false,
  };
}

const REQUIRED_PICKUP_FIELDS = ['pickup_location', 'name', 'email', 'phone', 'address', 'city', 'state', 'country', 'pin_code'] as const;
const REQUIRED_ADHOC_FIELDS = [
  'order_id', 'order_date', 'pickup_location', 'billing_customer_name', 'billing_address', 'billing_city', 'billing_pincode', 'billing_state',
  'billing_country', 'billing_email', 'billing_phone', 'order_items', 'payment_method', 'sub_total', 'length', 'breadth', 'height', 'weight',
] as const;

const missing = (body: Record<string, unknown>, fields: readonly string[]) => {
  const errors: Record<string, string[]> = {};
  for (const field of fields) if (body[field] === undefined || body[field] === null || body[field] === '') errors[field] = [`The ${field.replace(/_/g, ' ')} field is required.`];
  return errors;
};

/** Checks of the shapes every order body shares: 6-digit PIN codes, 10-digit phones, items, payment. */
export function orderProblems(body: Record<string, unknown>, required: readonly string[], pincodes: string[], phones: string[]): Record<string, string[]> {
  const errors = missing(body, required);
  for (const field of pincodes) if (!errors[field] && !/^[1-9]\d{5}$/.test(String(body[field]))) errors[field] = [`The ${field.replace(/_/g, ' ')} must be 6 digits.`];
  for (const field of phones) if (!errors[field] && !/^\d{10}$/.test(String(body[field]))) errors[field] = [`The ${field.replace(/_/g, ' ')} must be 10 digits.`];
  const items = body.order_items;
  if (!Array.isArray(items) || items.length === 0) errors.order_items = ['The order items field is required.'];
  else if (items.some((i: Record<string, unknown>) => !i?.name || !i?.sku || !i?.units || i?.selling_price === undefined)) {
    errors['order_items.0'] = ['Each item needs a name, sku, units and selling_price.'];
  }
  if (!['Prepaid', 'COD'].includes(String(body.payment_method))) errors.payment_method = ['The selected payment method is invalid.'];
  return errors;
}

export function forwardHandlers(state: { orders: FakeOrder[]; pickupLocations: FakePickupLocation[]; nextId: () => number }) {
  const { orders, pickupLocations } = state;
  return {
    listPickups(): Response {
      return json({ data: { shipping_address: pickupLocations.map((p) => ({ ...p, status: 2, phone_verified: 1, is_primary_location: 0 })), allow_more: 'true', company_name: 'Fake Shop' } });
    },

    addPickup(body: Record<string, unknown>): Response {
      const errors = missing(body, REQUIRED_PICKUP_FIELDS);
      if (!errors.phone && !/^\d{10}$/.test(String(body.phone))) errors.phone = ['Not a valid mobile number'];
      if (!errors.pin_code && !/^[1-9]\d{5}$/.test(String(body.pin_code))) errors.pin_code = ['The pin code must be 6 digits.'];
      if (!errors.pickup_location && String(body.pickup_location).length > 36) errors.pickup_location = ['The pickup location may not be greater than 36 characters.'];
      if (Object.keys(errors).length) return invalid(errors);
      if (pickupLocations.some((p) => p.pickup_location === body.pickup_location)) {
        return json({ message: 'Address nick name already in use', errors: { pickup_location: ['Address nick name already in use'] }, status_code: 422 }, 422);
      }
      const added: FakePickupLocation = {
        id: state.nextId(),
        ...(Object.fromEntries(REQUIRED_PICKUP_FIELDS.map((f) => [f, String(body[f])])) as Omit<FakePickupLocation, 'id' | 'address_2'>),
        address_2: String(body.address_2 ?? ''),
      };
      pickupLocations.push(added);
      return json({ success: true, address: { ...added, pickup_code: added.pickup_location, status: 1, phone_verified: 0 }, pickup_id: added.id, company_name: 'Fake Shop', full_name: 'API' });
    },

    createAdhoc(body: Record<string, unknown>): Response {
      const errors = orderProblems(body, REQUIRED_ADHOC_FIELDS, ['billing_pincode'], ['billing_phone']);
      if (body.shipping_is_billing !== true && body.shipping_is_billing !== 1) errors.shipping_customer_name = ['The shipping customer name field is required when shipping is billing is false.'];
      if (Object.keys(errors).length) return invalid(errors);
      const location = pickupLocations.find((p) => p.pickup_location === body.pickup_location);
      if (!location) {
        return json({ message: 'Wrong Pickup location entered. Please choose one location from data given', data: { data: pickupLocations.map((p) => p.pickup_location) }, status_code: 422 }, 422);
      }
      if (orders.some((o) => o.channelOrderId === body.order_id)) return json({ message: 'Order Id already exists.', status_code: 422 }, 422);
      const created = newOrder('forward', body, state.nextId, { pickup: location.pin_code, delivery: String(body.billing_pincode) });
      orders.push(created);
      return json({ order_id: created.orderId, shipment_id: created.shipmentId, status: 'NEW', status_code: 1, onboarding_completed_now: 0, awb_code: null, courier_company_id: null, courier_name: null });
    },

    requestPickup(body: Record<string, unknown>): Response {
      const ids = Array.isArray(body.shipment_id) ? body.shipment_id : [];
      const found = orders.find((o) => o.shipmentId === ids[0] && !o.cancelled);
      if (ids.length !== 1 || !found?.awb) return json({ message: 'Invalid shipment id', status_code: 400 }, 400);
      if (found.pickupRequested) return json({ message: 'Already in Pickup Queue.', status_code: 400 }, 400);
      found.pickupRequested = true;
      const when = new Date(Date.now() + 330 * 60_000 + 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
      return json({
        pickup_status: 1,
        response: { pickup_scheduled_date: when, pickup_token_number: `Reference No: ${found.orderId}`, status: 3, pickup_generated_date: { date: `${when}.000000`, timezone_type: 3, timezone: 'Asia/Kolkata' }, data: `Pickup is confirmed by ${found.courierName} For AWB :- ${found.awb}` },
      });
    },
  };
}
