import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { SHIPROCKET_RETURN_MESSAGES, shiprocketCarrier } from '#api/integrations/carriers/shiprocket.ts';
import { pickupNickname } from '#api/integrations/carriers/shiprocket-forward.ts';
import { CarrierUnavailable, type Carrier, type OutboundShipmentInput } from '#api/integrations/carriers/types.ts';
import { requestReference } from '#api/modules/requests/reference.ts';
import { fakeLabelPdf, LATE_ANSWER_MS, SHIPROCKET_TEST_TIMEOUT_MS, startFakeShiprocket, type FakeShiprocket } from '#tests/helpers/fake-shiprocket.ts';

// The shiprocket carrier's outbound direction (a declined offer's item sent back) against the fake
// Shiprocket on a real local port, through the adapter only; the route is tested in return-shipments.test.ts.

let fake: FakeShiprocket;
beforeAll(async () => {
  fake = await startFakeShiprocket({ unserviceablePincodes: ['799001'] });
});
afterAll(() => fake.stop());

function shiprocket(): { carrier: Carrier; warnings: { message: string; fields?: Record<string, unknown> }[] } {
  const warnings: { message: string; fields?: Record<string, unknown> }[] = [];
  const carrier = shiprocketCarrier({
    email: fake.email,
    password: fake.password,
    baseUrl: fake.url,
    webhookToken: 'panel-token-7f3a9c2e51d84b06',
    timeoutMs: SHIPROCKET_TEST_TIMEOUT_MS,
    log: { warn: (message, fields) => void warnings.push({ message, fields }) },
  });
  return { carrier, warnings };
}

let count = 0;
function outbound(to: Partial<OutboundShipmentInput['deliverTo']> = {}, from: Partial<OutboundShipmentInput['shipFrom']> = {}): OutboundShipmentInput {
  const requestId = `${(++count).toString(16).padStart(8, '0')}-2b2c-4d5e-8f90-a1b2c3d4e5f6`;
  return {
    requestId,
    reference: requestReference(requestId),
    shipFrom: {
      id: 'wh-7', name: 'Whitefield Returns', addressLine1: 'Plot 7, EPIP Zone', addressLine2: null, city: 'Bengaluru', state: 'Karnataka',
      postalCode: '560066', country: 'India', contactPerson: 'Ravi Kumar', contactPhone: '080 4110 2233', ...from,
    },
    deliverTo: { name: 'Kiran Patel', addressLine1: '5 Park Street', addressLine2: 'Flat 2', city: 'Kolkata', state: 'West Bengal', postalCode: '700016', country: 'India', phone: '+91 98300 11223', ...to },
    productName: 'HP 88A Toner',
    customerEmail: 'kiran@example.com',
  };
}

const calls = (path: string) => fake.requests.filter((r) => r.path === `/v1/external${path}`);
const ordersOf = (input: OutboundShipmentInput) => fake.orders.filter((o) => o.channelOrderId.startsWith(`${input.reference}-`));

async function refusal(promise: Promise<unknown>): Promise<CarrierUnavailable> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(CarrierUnavailable);
  return error as CarrierUnavailable;
}

describe('sending a return back with Shiprocket', () => {
  test('a forward order from the warehouse (registered once as a pickup location) to the customer: AWB without is_return, label, pickup requested', async () => {
    const { carrier } = shiprocket();
    const input = outbound();
    const nickname = pickupNickname(input.shipFrom);
    const shipment = await carrier.createOutboundShipment(input);

    expect(fake.pickupLocations.filter((p) => p.pickup_location === nickname)).toEqual([
      expect.objectContaining({ name: 'Ravi Kumar', email: fake.email, phone: '8041102233', address: 'Plot 7, EPIP Zone', city: 'Bengaluru', pin_code: '560066', country: 'India' }),
    ]);
    const [order] = ordersOf(input);
    expect(order!.kind).toBe('forward');
    expect(order!.body).toMatchObject({
      pickup_location: nickname, billing_customer_name: 'Kiran Patel', billing_address: '5 Park Street', billing_address_2: 'Flat 2', billing_city: 'Kolkata',
      billing_state: 'West Bengal', billing_pincode: '700016', billing_country: 'India', billing_phone: '9830011223', billing_email: 'kiran@example.com',
      shipping_is_billing: true, payment_method: 'Prepaid',
    });
    expect((order!.body.order_items as { sku: string }[])[0]!.sku).toBe(input.reference);
    expect(calls('/courier/assign/awb').at(-1)!.body).toEqual({ shipment_id: order!.shipmentId });
    expect(order!.pickupRequested).toBe(true);
    expect(shipment).toEqual({ carrierName: 'Shiprocket (Delhivery Surface)', trackingNumber: order!.awb!, carrierShipmentId: `${order!.orderId}/${order!.shipmentId}`, labelPdf: fakeLabelPdf(order!.awb!) });

    // the same warehouse again: no second registration, and this process does not even ask
    const listed = calls('/settings/company/pickup').length;
    await carrier.createOutboundShipment(outbound());
    expect(fake.pickupLocations.filter((p) => p.pickup_location === nickname)).toHaveLength(1);
    expect(calls('/settings/company/pickup').length).toBe(listed);
    // another process finds it in the account's list
    await shiprocket().carrier.createOutboundShipment(outbound());
    expect(calls('/settings/company/pickup').length).toBe(listed + 1);
    expect(calls('/settings/company/addpickup').filter((r) => (r.body as { pickup_location: string }).pickup_location === nickname)).toHaveLength(1);
  });

  test('an edited warehouse address is a new pickup location; the nickname fits Shiprocket\'s 36 characters', async () => {
    const first = pickupNickname(outbound().shipFrom);
    const moved = pickupNickname(outbound({}, { addressLine1: 'Plot 9, EPIP Zone' }).shipFrom);
    expect(moved).not.toBe(first);
    expect(first.length).toBeLessThanOrEqual(36);
    expect(pickupNickname(outbound().shipFrom)).toBe(first);
  });

  test('a pickup already requested ("Already in Pickup Queue") is a booked return, not a failure', async () => {
    const { carrier } = shiprocket();
    fake.failNext('/courier/generate/pickup', { kind: 'http', status: 400, body: { message: 'Already in Pickup Queue.', status_code: 400 } });
    const input = outbound();
    const shipment = await carrier.createOutboundShipment(input);
    expect(shipment.trackingNumber).toBe(ordersOf(input)[0]!.awb!);
    expect(ordersOf(input)[0]!.cancelled).toBe(false);
  });

  test('a step failing after the order exists cancels it and answers the admin a sentence; a retry books a new order', async () => {
    const { carrier } = shiprocket();
    const input = outbound();
    fake.failNext('/courier/generate/pickup', { kind: 'http', status: 500 });
    const failed = await refusal(carrier.createOutboundShipment(input));
    expect([failed.status, failed.message]).toEqual([502, SHIPROCKET_RETURN_MESSAGES.failed]);
    expect(ordersOf(input).map((o) => o.cancelled)).toEqual([true]);
    await carrier.createOutboundShipment(input);
    expect(ordersOf(input).map((o) => o.cancelled)).toEqual([true, false]);
  });

  test('refusals name what to do: the return address, no courier, no phone; silence is a 503', async () => {
    const { carrier } = shiprocket();
    const badPin = await refusal(carrier.createOutboundShipment(outbound({ postalCode: '7000' })));
    expect([badPin.status, badPin.message]).toEqual([502, SHIPROCKET_RETURN_MESSAGES.address]);
    const nowhere = outbound({ postalCode: '799001' });
    expect((await refusal(carrier.createOutboundShipment(nowhere))).message).toBe(SHIPROCKET_RETURN_MESSAGES.noCourier);
    expect(ordersOf(nowhere).every((o) => o.cancelled)).toBe(true);
    const sent = fake.requests.length;
    expect((await refusal(carrier.createOutboundShipment(outbound({ phone: null })))).message).toBe(SHIPROCKET_RETURN_MESSAGES.noPhone);
    expect((await refusal(carrier.createOutboundShipment(outbound({}, { contactPhone: null })))).message).toBe(SHIPROCKET_RETURN_MESSAGES.warehouse);
    expect(fake.requests.length).toBe(sent);
    fake.failNext('/orders/create/adhoc', { kind: 'slow', delayMs: LATE_ANSWER_MS });
    expect((await refusal(carrier.createOutboundShipment(outbound()))).status).toBe(503);
  });

  test('a warehouse Shiprocket will not take as a pickup address is refused with its own sentence', async () => {
    const { carrier, warnings } = shiprocket();
    const error = await refusal(carrier.createOutboundShipment(outbound({}, { postalCode: '56006', addressLine1: 'Unit 12, Tech Park' })));
    expect([error.status, error.message]).toEqual([502, SHIPROCKET_RETURN_MESSAGES.warehouse]);
    expect(warnings.at(-1)!.fields).toMatchObject({ step: 'pickup location', kind: 'refused', status: 422 });
  });
});
