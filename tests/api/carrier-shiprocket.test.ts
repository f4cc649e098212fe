import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { SHIPROCKET_MESSAGES, shiprocketCarrier, type ShiprocketOptions } from '#api/integrations/carriers/shiprocket.ts';
import { CarrierAuthError, CarrierUnavailable, type Carrier, type ReturnShipmentInput } from '#api/integrations/carriers/types.ts';
import { requestReference } from '#api/modules/requests/reference.ts';
import { loadSettings, SettingsError } from '#api/settings.ts';
import { fakeLabelPdf, LATE_ANSWER_MS, SHIPROCKET_TEST_TIMEOUT_MS, startFakeShiprocket, type FakeShiprocket } from '#tests/helpers/fake-shiprocket.ts';

// The shiprocket carrier against a fake Shiprocket on a real local port, through the adapter only
// (the label route, webhook route and polling job that call it are tested with their feature).

const WEBHOOK_TOKEN = 'panel-token-7f3a9c2e51d84b06';
const DAY = 24 * 3600_000;
let fake: FakeShiprocket;

beforeAll(async () => {
  fake = await startFakeShiprocket({ unserviceablePincodes: ['799001'] });
});
afterAll(() => fake.stop());

interface Warning { message: string; fields?: Record<string, unknown> }

function shiprocket(extra: Partial<ShiprocketOptions> = {}): { carrier: Carrier; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const carrier = shiprocketCarrier({
    email: fake.email,
    password: fake.password,
    baseUrl: fake.url,
    webhookToken: WEBHOOK_TOKEN,
    timeoutMs: SHIPROCKET_TEST_TIMEOUT_MS,
    log: { warn: (message, fields) => void warnings.push({ message, fields }) },
    ...extra,
  });
  return { carrier, warnings };
}

let requestCount = 0;
function returnInput(pickup: Partial<ReturnShipmentInput['pickup']> = {}, warehouse: Partial<ReturnShipmentInput['deliverTo']> = {}): ReturnShipmentInput {
  const requestId = `${(++requestCount).toString(16).padStart(8, '0')}-1b2c-4d5e-8f90-a1b2c3d4e5f6`;
  return {
    requestId,
    reference: requestReference(requestId),
    pickup: { name: 'Asha Rao', phone: '+919845012345', addressLine1: '12 MG Road', addressLine2: 'Flat 4B', city: 'Bengaluru', state: 'Karnataka', postalCode: '560001', ...pickup },
    deliverTo: {
      id: 'wh-1', name: 'Whitefield Returns', addressLine1: 'Plot 7, EPIP Zone', addressLine2: null, city: 'Bengaluru', state: 'Karnataka',
      postalCode: '560066', country: 'India', contactPerson: 'Ravi Kumar', contactPhone: '080 4110 2233', ...warehouse,
    },
    productName: 'HP 305 ink cartridge',
    customerEmail: 'asha@example.com',
  };
}

const apiCalls = (path: string) => fake.requests.filter((r) => r.path === `/v1/external${path}`);
const orderFor = (reference: string) => fake.orders.filter((o) => o.channelOrderId.startsWith(`${reference}-`));

async function refusal(promise: Promise<unknown>): Promise<CarrierUnavailable> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(CarrierUnavailable);
  return error as CarrierUnavailable;
}

describe('booking a return with Shiprocket', () => {
  test('the return order picks up at the customer and delivers to the warehouse, gets an AWB, and the label PDF is returned', async () => {
    const { carrier } = shiprocket();
    const input = returnInput();
    const shipment = await carrier.createReturnShipment(input);

    const [order] = orderFor(input.reference);
    expect(order!.body).toMatchObject({
      pickup_customer_name: 'Asha Rao', pickup_address: '12 MG Road', pickup_address_2: 'Flat 4B', pickup_city: 'Bengaluru',
      pickup_state: 'Karnataka', pickup_country: 'India', pickup_pincode: '560001', pickup_phone: '9845012345', pickup_email: 'asha@example.com',
      shipping_customer_name: 'Ravi Kumar', shipping_address: 'Plot 7, EPIP Zone', shipping_city: 'Bengaluru', shipping_state: 'Karnataka',
      shipping_country: 'India', shipping_pincode: '560066', shipping_phone: '8041102233', payment_method: 'Prepaid',
    });
    expect((order!.body.order_items as { name: string; sku: string }[])[0]).toMatchObject({ name: 'HP 305 ink cartridge', sku: input.reference });
    expect(apiCalls('/courier/assign/awb').at(-1)!.body).toEqual({ shipment_id: order!.shipmentId, is_return: 1 });

    expect(shipment.trackingNumber).toBe(order!.awb!);
    expect(shipment.carrierName).toBe('Shiprocket (Delhivery Reverse)');
    expect(shipment.carrierShipmentId).toBe(`${order!.orderId}/${order!.shipmentId}`);
    expect(shipment.labelPdf).toEqual(fakeLabelPdf(order!.awb!));
    // the label sits on Shiprocket's file store: our token is not sent there
    const download = fake.requests.findLast((r) => r.path.startsWith('/labels/'))!;
    expect(download.authorization).toBeNull();
  });

  test('the settings plug in as loadSettings gives them (CARRIER=shiprocket)', async () => {
    const settings = loadSettings({
      JWT_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/sp-shiprocket-settings', CARRIER: 'shiprocket', SHIPROCKET_EMAIL: fake.email,
      SHIPROCKET_PASSWORD: fake.password, SHIPROCKET_WEBHOOK_TOKEN: WEBHOOK_TOKEN, SHIPROCKET_API_URL: fake.url,
    });
    const warnings: string[] = [];
    const carrier = shiprocketCarrier(settings.shiprocket, { log: { warn: (message) => void warnings.push(message) } });
    const shipment = await carrier.createReturnShipment(returnInput());
    expect(shipment.labelPdf).toEqual(fakeLabelPdf(shipment.trackingNumber));
    fake.failNext('/orders/create/return', { kind: 'http', status: 500 });
    await refusal(carrier.createReturnShipment(returnInput()));
    expect(warnings).toEqual(['Shiprocket request failed']);
  });

  test('bookings sent at the same time share one sign-in', async () => {
    const { carrier } = shiprocket();
    const before = fake.logins;
    const shipments = await Promise.all([1, 2, 3].map(() => carrier.createReturnShipment(returnInput())));
    expect(new Set(shipments.map((s) => s.trackingNumber)).size).toBe(3);
    expect(fake.logins).toBe(before + 1);
  });

  test('signs in once and reuses the token for later bookings and tracking', async () => {
    const { carrier } = shiprocket();
    const before = fake.logins;
    const first = await carrier.createReturnShipment(returnInput());
    await carrier.createReturnShipment(returnInput());
    await carrier.track(first.trackingNumber);
    expect(fake.logins).toBe(before + 1);
    const bearers = new Set(fake.requests.slice(-7).filter((r) => r.path.startsWith('/v1/external/') && !r.path.endsWith('/auth/login')).map((r) => r.authorization));
    expect(bearers.size).toBe(1);
  });

  test('renews the token a day before it expires (Shiprocket tokens live 10 days), not earlier', async () => {
    let clock = Date.now();
    const { carrier } = shiprocket({ now: () => clock });
    const before = fake.logins;
    await carrier.track('0');
    clock += 8.9 * DAY;
    await carrier.track('0');
    expect(fake.logins).toBe(before + 1);
    clock += 0.2 * DAY;
    await carrier.track('0');
    expect(fake.logins).toBe(before + 2);
    const [older, newer] = apiCalls('/courier/track/awb/0').slice(-2).map((r) => r.authorization);
    expect(newer).not.toBe(older);
  });

  test('a 401 signs in again once and sends the call once more', async () => {
    const { carrier } = shiprocket();
    await carrier.track('0');
    fake.expireTokens();
    const before = fake.logins;
    const sent = apiCalls('/orders/create/return').length;
    const shipment = await carrier.createReturnShipment(returnInput());
    expect(shipment.trackingNumber).toMatch(/^\d+$/);
    expect(fake.logins).toBe(before + 1);
    expect(apiCalls('/orders/create/return').length).toBe(sent + 2);
  });

  test('a second 401 in a row is not retried again: 502, one sign-in, two attempts', async () => {
    const { carrier } = shiprocket();
    await carrier.track('0');
    const before = fake.logins;
    const sent = apiCalls('/orders/create/return').length;
    fake.failNext('/orders/create/return', { kind: 'tokenRevoked' });
    fake.failNext('/orders/create/return', { kind: 'tokenRevoked' });
    const error = await refusal(carrier.createReturnShipment(returnInput()));
    expect(error.status).toBe(502);
    expect(error.message).toBe(SHIPROCKET_MESSAGES.failed);
    expect(fake.logins).toBe(before + 1);
    expect(apiCalls('/orders/create/return').length).toBe(sent + 2);
  });

  test('wrong credentials: 502 with a sentence for the customer; the log has the reason, never the password', async () => {
    const { carrier, warnings } = shiprocket({ password: 'not-the-password' });
    const error = await refusal(carrier.createReturnShipment(returnInput()));
    expect(error.status).toBe(502);
    expect(error.message).toBe(SHIPROCKET_MESSAGES.failed);
    expect(warnings[0]!.fields).toMatchObject({ step: 'sign-in', kind: 'refused', status: 400 });
    expect(String(warnings[0]!.fields!.detail)).toContain('Invalid email and password combination');
    expect(JSON.stringify(warnings)).not.toContain('not-the-password');
  });
});

describe('when Shiprocket refuses or fails', () => {
  test("a 4xx on the return order is a 502 the customer understands, never Shiprocket's own text", async () => {
    const { carrier, warnings } = shiprocket();
    const input = returnInput({ postalCode: '056001' });
    const error = await refusal(carrier.createReturnShipment(input));
    expect(error.status).toBe(502);
    expect(error.message).toBe(SHIPROCKET_MESSAGES.address);
    expect(error.message).not.toMatch(/pincode|Invalid Data|422/i);
    expect(String(warnings[0]!.fields!.detail)).toContain('The pickup pincode must be 6 digits.');
    expect(orderFor(input.reference)).toEqual([]);
  });

  test('no courier for the pickup PIN: 502, the half-made order is cancelled, and a retry for another address works', async () => {
    const { carrier } = shiprocket();
    const input = returnInput({ postalCode: '799001' });
    const error = await refusal(carrier.createReturnShipment(input));
    expect(error.message).toBe(SHIPROCKET_MESSAGES.noCourier);
    expect(orderFor(input.reference).map((o) => o.cancelled)).toEqual([true]);
    const retry = await carrier.createReturnShipment({ ...input, pickup: { ...input.pickup, postalCode: '560001' } });
    const orders = orderFor(input.reference);
    expect(orders.map((o) => o.cancelled)).toEqual([true, false]);
    expect(retry.trackingNumber).toBe(orders[1]!.awb!);
  });

  test('a failed label cancels the order; the retry books a new order id and works', async () => {
    const { carrier } = shiprocket();
    const input = returnInput();
    fake.failNext('/courier/generate/label', { kind: 'http', status: 500 });
    const error = await refusal(carrier.createReturnShipment(input));
    expect(error.status).toBe(502);
    expect(error.message).toBe(SHIPROCKET_MESSAGES.failed);
    const retry = await carrier.createReturnShipment(input);
    const orders = orderFor(input.reference);
    expect(orders.map((o) => o.cancelled)).toEqual([true, false]);
    expect(new Set(orders.map((o) => o.channelOrderId)).size).toBe(2);
    expect(retry.labelPdf).toEqual(fakeLabelPdf(orders[1]!.awb!));
  });

  test('a label file that cannot be read, or is not a PDF, is a 502 and the order is cancelled', async () => {
    const { carrier, warnings } = shiprocket();
    const input = returnInput();
    fake.failNext('/labels', { kind: 'http', status: 403 });
    expect((await refusal(carrier.createReturnShipment(input))).message).toBe(SHIPROCKET_MESSAGES.failed);
    fake.failNext('/labels', { kind: 'badJson' });
    expect((await refusal(carrier.createReturnShipment(input))).status).toBe(502);
    expect(orderFor(input.reference).map((o) => o.cancelled)).toEqual([true, true]);
    expect(warnings.map((w) => [w.fields!.step, w.fields!.kind])).toEqual([['label download', 'refused'], ['label download', 'garbage']]);
  });

  test('no answer in time is a 503, and the retry works', async () => {
    const { carrier } = shiprocket();
    await carrier.track('0');
    fake.failNext('/courier/assign/awb', { kind: 'slow', delayMs: LATE_ANSWER_MS });
    const input = returnInput();
    const error = await refusal(carrier.createReturnShipment(input));
    expect(error.status).toBe(503);
    expect(error.message).toBe(SHIPROCKET_MESSAGES.timeout);
    expect(orderFor(input.reference)[0]!.cancelled).toBe(true);
    expect((await carrier.createReturnShipment(input)).trackingNumber).toMatch(/^\d+$/);
  });

  test('an answer that is not JSON is a 502', async () => {
    const { carrier, warnings } = shiprocket();
    fake.failNext('/orders/create/return', { kind: 'badJson' });
    const error = await refusal(carrier.createReturnShipment(returnInput()));
    expect(error.status).toBe(502);
    expect(error.message).toBe(SHIPROCKET_MESSAGES.failed);
    expect(warnings[0]!.fields).toMatchObject({ step: 'return order', kind: 'garbage' });
    fake.failNext('/courier/assign/awb', { kind: 'badJson' });
    expect((await refusal(carrier.createReturnShipment(returnInput()))).message).toBe(SHIPROCKET_MESSAGES.failed);
    expect(warnings[1]!.fields).toMatchObject({ step: 'AWB assignment', kind: 'garbage' });
  });

  test('Shiprocket out of reach is a 503', async () => {
    const { carrier } = shiprocket({ baseUrl: 'http://127.0.0.1:9/v1/external' });
    expect((await refusal(carrier.createReturnShipment(returnInput()))).status).toBe(503);
  });

  test('a warehouse without a contact phone is refused before anything is sent', async () => {
    const { carrier, warnings } = shiprocket();
    const sent = fake.requests.length;
    const error = await refusal(carrier.createReturnShipment(returnInput({}, { contactPhone: null })));
    expect(error.status).toBe(502);
    expect(fake.requests.length).toBe(sent);
    expect(warnings[0]!.message).toContain('contact phone');
  });
});

describe('tracking', () => {
  let awb: string;
  let sr: Carrier;
  const headers = (token?: string) => new Headers({ 'content-type': 'application/json', ...(token === undefined ? {} : { 'x-api-key': token }) });

  // each case books a parcel of its own, so its scans are its own in any order (bun test --randomize)
  beforeEach(async () => {
    sr = shiprocket().carrier;
    awb = (await sr.createReturnShipment(returnInput())).trackingNumber;
    fake.scan(awb, { srStatus: 19, label: 'OUT FOR PICKUP', date: '2026-11-25 10:04:00', status: 'OFP', location: 'RTO/CHD, BANGALORE, KARNATAKA' });
    fake.scan(awb, { srStatus: 42, label: 'PICKED UP', date: '2026-11-25 13:50:00', status: 'PUD', activity: 'PickDone ', location: 'BLR/FC1, BANGALORE, KARNATAKA' });
  });

  test('the webhook with the panel token gives our steps; statuses that are not ours are left out', () => {
    const events = sr.parseWebhook(headers(WEBHOOK_TOKEN), fake.webhookBody(awb));
    expect(events).toEqual([
      {
        trackingNumber: awb, status: 'picked_up', at: new Date('2026-11-25T08:20:00Z'), eventKey: `${awb}:picked_up:2026-11-25T08:20:00.000Z`,
        description: 'Picked up', location: 'BLR/FC1, BANGALORE, KARNATAKA',
      },
    ]);
  });

  test('a missing or wrong x-api-key is refused (CarrierAuthError)', () => {
    const body = fake.webhookBody(awb);
    expect(() => sr.parseWebhook(headers(), body)).toThrow(CarrierAuthError);
    expect(() => sr.parseWebhook(headers(''), body)).toThrow(CarrierAuthError);
    expect(() => sr.parseWebhook(headers(`${WEBHOOK_TOKEN.slice(0, -1)}x`), body)).toThrow(CarrierAuthError);
    expect(() => sr.parseWebhook(headers(`${WEBHOOK_TOKEN}x`), body)).toThrow(CarrierAuthError);
    expect(() => sr.parseWebhook(new Headers({ authorization: `Bearer ${WEBHOOK_TOKEN}` }), body)).toThrow(CarrierAuthError);
  });

  test('the same scan sent twice, or again in a later webhook, keeps its eventKey', () => {
    const once = sr.parseWebhook(headers(WEBHOOK_TOKEN), fake.webhookBody(awb));
    expect(sr.parseWebhook(headers(WEBHOOK_TOKEN), fake.webhookBody(awb))).toEqual(once);
    fake.scan(awb, { srStatus: 6, label: 'SHIPPED', date: '2026-11-25 20:28:00', activity: 'Picked Shipment InScan from Manifest', location: 'BLR/FC1' });
    fake.scan(awb, { srStatus: 18, label: 'IN TRANSIT', date: '2026-11-25 21:02:00', location: 'BLR/FC1' });
    const later = sr.parseWebhook(headers(WEBHOOK_TOKEN), fake.webhookBody(awb));
    expect(later.map((e) => e.status)).toEqual(['picked_up', 'in_transit', 'in_transit']);
    expect(later[0]!.eventKey).toBe(once[0]!.eventKey);
    expect(new Set(later.map((e) => e.eventKey)).size).toBe(3);
  });

  test('track(awb) maps the activities to the same events the webhook gives', async () => {
    fake.scan(awb, { srStatus: 6, label: 'SHIPPED', date: '2026-11-25 20:28:00', activity: 'Picked Shipment InScan from Manifest', location: 'BLR/FC1' });
    fake.scan(awb, { srStatus: 18, label: 'IN TRANSIT', date: '2026-11-25 21:02:00', location: 'BLR/FC1' });
    fake.scan(awb, { srStatus: 17, label: 'OUT FOR DELIVERY', date: '2026-11-27 08:57:00', location: 'WHITEFIELD' });
    fake.scan(awb, { srStatus: 7, label: 'DELIVERED', date: '2026-11-27 11:37:00', location: 'WHITEFIELD' });
    const polled = await sr.track(awb);
    const pushed = sr.parseWebhook(headers(WEBHOOK_TOKEN), fake.webhookBody(awb));
    expect(polled.map((e) => e.status).sort()).toEqual(['delivered', 'in_transit', 'in_transit', 'out_for_delivery', 'picked_up']);
    expect(new Set(polled.map((e) => e.eventKey))).toEqual(new Set(pushed.map((e) => e.eventKey)));
    expect(polled.find((e) => e.status === 'delivered')!.at).toEqual(new Date('2026-11-27T06:07:00Z'));
  });

  test("a webhook without scans gives its current status at current_timestamp; current_status_id (the order table) is not read", () => {
    const current = (fields: Record<string, unknown>) => sr.parseWebhook(headers(WEBHOOK_TOKEN), fake.webhookBody(awb, { scans: [], ...fields }));
    expect(current({ shipment_status: 'IN TRANSIT', shipment_status_id: 18, current_timestamp: '26 11 2026 09:15:30' })).toEqual([
      { trackingNumber: awb, status: 'in_transit', at: new Date('2026-11-26T03:45:30Z'), eventKey: `${awb}:in_transit:2026-11-26T03:45:30.000Z`, description: 'In transit', location: null },
    ]);
    // 17 is Out For Delivery in the shipment table but RTO Acknowledged in the order table
    expect(current({ shipment_status: 'OUT FOR PICKUP', shipment_status_id: 19, current_status: 'OUT FOR PICKUP', current_status_id: 17 })).toEqual([]);
  });

  test('an authentic body that is not JSON, or names no AWB, gives no events', () => {
    expect(sr.parseWebhook(headers(WEBHOOK_TOKEN), '{"awb": ')).toEqual([]);
    expect(sr.parseWebhook(headers(WEBHOOK_TOKEN), '[]')).toEqual([]);
    expect(sr.parseWebhook(headers(WEBHOOK_TOKEN), fake.webhookBody(awb, { awb: '' }))).toEqual([]);
  });

  test('polling an AWB with no activity yet gives []; a failing or silent Shiprocket is a CarrierUnavailable', async () => {
    expect(await sr.track('9999999999')).toEqual([]);
    fake.failNext(`/courier/track/awb/${awb}`, { kind: 'http', status: 500 });
    const refused = await refusal(sr.track(awb));
    expect([refused.status, refused.message]).toEqual([502, SHIPROCKET_MESSAGES.tracking]);
    const slow = shiprocket().carrier;
    await slow.track('0');
    fake.failNext(`/courier/track/awb/${awb}`, { kind: 'slow', delayMs: LATE_ANSWER_MS });
    expect((await refusal(slow.track(awb))).status).toBe(503);
  });
});

describe('settings', () => {
  const base = { JWT_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/sp-shiprocket-settings' };
  const full = { ...base, CARRIER: 'shiprocket', SHIPROCKET_EMAIL: 'api@shop.example', SHIPROCKET_PASSWORD: 'secret', SHIPROCKET_WEBHOOK_TOKEN: WEBHOOK_TOKEN };

  test('defaults: no carrier for a real shop (the demo books with the embedded one), Shiprocket at its documented address, a 15 s timeout', () => {
    const settings = loadSettings({ ...base, DEMO_SEED: 'false' });
    expect(settings.carrier).toBe('none');
    expect(loadSettings(base).carrier).toBe('embedded');
    expect(settings.shiprocket).toEqual({ email: undefined, password: undefined, baseUrl: 'https://apiv2.shiprocket.in/v1/external', webhookToken: undefined, timeoutMs: 15_000 });
  });

  test('with CARRIER=shiprocket the email, password and webhook token are required together, each named', () => {
    expect(loadSettings(full).shiprocket.email).toBe('api@shop.example');
    for (const name of ['SHIPROCKET_EMAIL', 'SHIPROCKET_PASSWORD', 'SHIPROCKET_WEBHOOK_TOKEN']) {
      expect(() => loadSettings({ ...full, [name]: '' })).toThrow(new RegExp(`^Invalid setting ${name}: required when CARRIER is shiprocket`));
    }
    expect(() => loadSettings({ ...full, CARRIER: 'fedex' })).toThrow(SettingsError);
  });

  test('bad values are refused naming the setting', () => {
    expect(() => loadSettings({ ...full, SHIPROCKET_EMAIL: 'api-user' })).toThrow('Invalid setting SHIPROCKET_EMAIL: expected an email address, got "api-user".');
    expect(() => loadSettings({ ...full, SHIPROCKET_WEBHOOK_TOKEN: 'short' })).toThrow(/^Invalid setting SHIPROCKET_WEBHOOK_TOKEN: expected at least 16 characters/);
    expect(() => loadSettings({ ...full, SHIPROCKET_API_URL: 'ftp://x' })).toThrow(/^Invalid setting SHIPROCKET_API_URL/);
    expect(() => loadSettings({ ...full, SHIPROCKET_TIMEOUT_MS: '5' })).toThrow(/^Invalid setting SHIPROCKET_TIMEOUT_MS/);
  });
});
