import { randomBytes, randomUUID } from 'node:crypto';
import { forwardHandlers, invalid, json, newOrder, orderProblems, type FakeOrder, type FakePickupLocation } from './fake-shiprocket-forward.ts';

/**
 * A fake Shiprocket API v1 on a real local port (Bun.serve on 127.0.0.1), answering the calls the
 * shiprocket carrier makes in Shiprocket's documented shapes (apidocs.shiprocket.in; the Go client
 * github.com/venom90/shiprocket-go for the field names):
 *   POST /v1/external/auth/login, POST /v1/external/orders/create/return, POST /v1/external/courier/assign/awb,
 *   POST /v1/external/courier/generate/label (the label then served as a PDF from /labels/…, without a token, as
 *   Shiprocket's file store does), GET /v1/external/courier/track/awb/{awb}, POST /v1/external/orders/cancel.
 * Tokens are JWTs with an `exp`; a missing, unknown or expired one gets Shiprocket's 401. Scans added with
 * `scan()` show in tracking and in the webhook bodies `webhookBody()` builds (or `postWebhook()` sends).
 * `failNext(path, fault)` makes the next call to a path misbehave once ('/labels' for the label files).
 */

/**
 * The tests' Shiprocket client timeout: every call but a held one must answer within it on a loaded
 * machine (a first call of a process can take a third of a second), and LATE_ANSWER_MS, the delay of
 * a `slow` answer that is meant to time out, is well past it.
 */
export const SHIPROCKET_TEST_TIMEOUT_MS = 2_000;
export const LATE_ANSWER_MS = 2 * SHIPROCKET_TEST_TIMEOUT_MS;

export type ShiprocketFault =
  /** answers this status with this JSON body (Shiprocket's error shape by default) and does nothing else */
  | { kind: 'http'; status: number; body?: unknown }
  /** does the work, then answers only after delayMs */
  | { kind: 'slow'; delayMs: number }
  /** answers 200 with a body that is not JSON */
  | { kind: 'badJson' }
  /** the token the call carries is refused with a 401, as when Shiprocket ended it early */
  | { kind: 'tokenRevoked' };

export type { FakeOrder, FakePickupLocation } from './fake-shiprocket-forward.ts';

export interface FakeScan {
  srStatus: number | 'NA';
  label: string;
  /** India time as Shiprocket writes it: '2026-11-25 10:04:00' */
  date: string;
  activity?: string;
  location?: string;
  /** the courier's own code (X-PPOM, OFD, DLVD) */
  status?: string;
}

export interface RecordedShiprocketRequest {
  method: string;
  path: string;
  body: unknown;
  authorization: string | null;
}

export interface FakeShiprocketOptions {
  email?: string;
  password?: string;
  /** how long a token lives (default 10 days, as documented) */
  tokenLifetimeSeconds?: number;
  /** PIN codes no courier serves (a return's pickup, a forward order's delivery): AWB assignment answers awb_assign_status 0 */
  unserviceablePincodes?: readonly string[];
}

const REQUIRED_RETURN_FIELDS = [
  'order_id', 'order_date', 'pickup_customer_name', 'pickup_address', 'pickup_city', 'pickup_state', 'pickup_country',
  'pickup_pincode', 'pickup_phone', 'shipping_customer_name', 'shipping_address', 'shipping_city', 'shipping_country',
  'shipping_pincode', 'shipping_state', 'shipping_phone', 'payment_method', 'sub_total', 'length', 'breadth', 'height', 'weight',
] as const;

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A one-page PDF that names its AWB, so a test can tell whose label it holds. */
export function fakeLabelPdf(awb: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(
    `%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n` +
      `3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 288 432]>> endobj\n% AWB ${awb}\ntrailer <</Root 1 0 R>>\n%%EOF\n`,
  );
}

export async function startFakeShiprocket(options: FakeShiprocketOptions = {}) {
  const email = options.email ?? 'api-user@shop.example';
  const password = options.password ?? `pw-${randomBytes(6).toString('hex')}`;
  const lifetime = options.tokenLifetimeSeconds ?? 10 * 24 * 3600;
  const unserviceable = new Set(options.unserviceablePincodes ?? []);
  const tokens = new Map<string, number>(); // token → expiry (epoch s)
  const orders: FakeOrder[] = [];
  const pickupLocations: FakePickupLocation[] = [];
  const scans = new Map<string, FakeScan[]>();
  const faults: { path: string; fault: ShiprocketFault }[] = [];
  const requests: RecordedShiprocketRequest[] = [];
  let logins = 0;
  let nextId = 400_000_000 + Math.floor(Math.random() * 1_000_000) * 10;
  let nextAwb = 19_041_424_000_000 + Math.floor(Math.random() * 100_000) * 100;

  function issueToken(): string {
    const iat = Math.floor(Date.now() / 1000);
    const token = `${b64({ typ: 'JWT', alg: 'HS256' })}.${b64({ sub: 4242, iat, exp: iat + lifetime, jti: randomUUID() })}.${randomBytes(24).toString('base64url')}`;
    tokens.set(token, iat + lifetime);
    return token;
  }

  function signedIn(request: Request): string | null {
    const token = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
    const expiry = token ? tokens.get(token) : undefined;
    return token && expiry !== undefined && expiry > Date.now() / 1000 ? token : null;
  }

  const order = (id: unknown) => orders.find((o) => o.shipmentId === id || o.orderId === id);

  const forward = forwardHandlers({ orders, pickupLocations, nextId: () => nextId++ });

  function createReturn(body: Record<string, unknown>): Response {
    const errors = orderProblems(body, REQUIRED_RETURN_FIELDS, ['pickup_pincode', 'shipping_pincode'], ['pickup_phone', 'shipping_phone']);
    if (Object.keys(errors).length) return invalid(errors);
    if (orders.some((o) => o.channelOrderId === body.order_id)) return json({ message: 'Order Id already exists.', status_code: 422 }, 422);
    const created = newOrder('return', body, () => nextId++, { pickup: String(body.pickup_pincode), delivery: String(body.shipping_pincode) });
    orders.push(created);
    return json({ order_id: created.orderId, shipment_id: created.shipmentId, status: 'RETURN PENDING', status_code: 21, company_name: 'Fake Shop' });
  }

  function assignAwb(body: Record<string, unknown>): Response {
    const found = order(body.shipment_id);
    if (!found || found.cancelled) return json({ message: 'Shipment id does not exist.', status_code: 400 }, 400);
    if ((Number(body.is_return) === 1) !== (found.kind === 'return')) {
      return json({ message: found.kind === 'return' ? 'This is a return shipment: send is_return 1.' : 'This is not a return shipment.', status_code: 400 }, 400);
    }
    const blocked = found.kind === 'return' ? found.pickupPincode : found.deliveryPincode;
    if (unserviceable.has(blocked)) {
      return json({ awb_assign_status: 0, response: { data: { awb_assign_error: `Selected courier is not serviceable for ${found.kind === 'return' ? 'pickup' : 'delivery'} pincode ${blocked}` } } });
    }
    found.awb ??= String(nextAwb++);
    found.courierName = found.kind === 'return' ? 'Delhivery Reverse' : 'Delhivery Surface';
    const today = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 19).replace('T', ' ');
    return json({
      awb_assign_status: 1,
      response: {
        data: {
          courier_company_id: 43,
          awb_code: found.awb,
          cod: 0,
          order_id: found.orderId,
          shipment_id: found.shipmentId,
          awb_code_status: 1,
          assigned_date_time: { date: `${today}.000000`, timezone_type: 3, timezone: 'Asia/Kolkata' },
          applied_weight: Number(found.body.weight),
          company_id: 4242,
          courier_name: found.courierName,
          child_courier_name: null,
          pickup_scheduled_date: today,
          routing_code: '',
          rto_routing_code: '',
          invoice_no: `Retail${found.orderId}`,
          transporter_id: '',
          transporter_name: '',
        },
      },
    });
  }

  function generateLabel(body: Record<string, unknown>, origin: string): Response {
    const ids = Array.isArray(body.shipment_id) ? body.shipment_id : [];
    const found = ids.map(order).filter((o): o is FakeOrder => !!o?.awb && !o.cancelled);
    if (found.length === 0) return json({ label_created: 0, response: 'Label could not be created.', not_created: ids });
    for (const o of found) o.labelUrl = `${origin}/labels/${o.shipmentId}-${randomBytes(4).toString('hex')}.pdf`;
    return json({ label_created: 1, label_url: found[0]!.labelUrl, response: 'Label has been created and uploaded successfully!', not_created: [] });
  }

  function tracking(awb: string): Response {
    const list = scans.get(awb);
    const found = orders.find((o) => o.awb === awb);
    if (!found || !list?.length) {
      return json({ tracking_data: { track_status: 0, error: 'Aahh! There is no activities found in our DB. Please have some patience it will be updated soon.' } });
    }
    const newestFirst = [...list].reverse();
    const latest = newestFirst.find((s) => s.srStatus !== 'NA');
    return json({
      tracking_data: {
        track_status: 1,
        shipment_status: latest?.srStatus ?? 1,
        shipment_track: [{ id: found.shipmentId, awb_code: awb, courier_company_id: 43, shipment_id: found.shipmentId, order_id: found.orderId, current_status: latest?.label ?? 'AWB Assigned', courier_name: found.courierName }],
        shipment_track_activities: newestFirst.map(activity),
        track_url: `https://shiprocket.co/tracking/${awb}`,
        etd: null,
      },
    });
  }

  const activity = (s: FakeScan) => ({
    date: s.date,
    status: s.status ?? 'X',
    activity: s.activity ?? s.label,
    location: s.location ?? 'NA',
    'sr-status': String(s.srStatus),
    'sr-status-label': s.label,
  });

  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const url = new URL(request.url);
      const raw = request.method === 'POST' ? await request.text() : '';
      let body: Record<string, unknown> = {};
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        return json({ message: 'Invalid JSON', status_code: 400 }, 400);
      }
      requests.push({ method: request.method, path: url.pathname, body, authorization: request.headers.get('authorization') });
      if (url.pathname.startsWith('/labels/') && request.method === 'GET') {
        const index = faults.findIndex((f) => f.path === '/labels');
        const fault = index >= 0 ? faults.splice(index, 1)[0]!.fault : null;
        if (fault?.kind === 'http') return new Response('<?xml version="1.0"?><Error><Code>AccessDenied</Code></Error>', { status: fault.status });
        if (fault?.kind === 'badJson') return new Response('<html>Not a label</html>', { headers: { 'content-type': 'text/html' } });
        const labelled = orders.find((o) => o.labelUrl && new URL(o.labelUrl).pathname === url.pathname);
        return labelled ? new Response(fakeLabelPdf(labelled.awb!), { headers: { 'content-type': 'application/pdf' } }) : new Response('NoSuchKey', { status: 404 });
      }
      if (!url.pathname.startsWith('/v1/external/')) return json({ message: '404 Not Found', status_code: 404 }, 404);
      const path = url.pathname.slice('/v1/external'.length);
      const index = faults.findIndex((f) => f.path === path);
      const fault = index >= 0 ? faults.splice(index, 1)[0]!.fault : null;
      if (fault?.kind === 'http') return json(fault.body ?? { message: `Fake failure ${fault.status}`, status_code: fault.status }, fault.status);
      if (fault?.kind === 'badJson') return new Response('<html><body>502 Bad Gateway</body></html>', { status: 200, headers: { 'content-type': 'application/json' } });

      let response: Response;
      if (path === '/auth/login' && request.method === 'POST') {
        if (body.email !== email || body.password !== password) response = json({ message: 'Invalid email and password combination', status_code: 400 }, 400);
        else {
          logins++;
          response = json({ id: 4242, first_name: 'API', last_name: 'User', email, company_id: 4242, created_at: '2026-01-05T10:00:00.000000Z', token: issueToken() });
        }
      } else {
        const token = signedIn(request);
        if (fault?.kind === 'tokenRevoked' && token) tokens.delete(token);
        if (!token || fault?.kind === 'tokenRevoked') return json({ message: 'Token has expired', status_code: 401 }, 401);
        if (path === '/orders/create/return' && request.method === 'POST') response = createReturn(body);
        else if (path === '/orders/create/adhoc' && request.method === 'POST') response = forward.createAdhoc(body);
        else if (path === '/settings/company/pickup' && request.method === 'GET') response = forward.listPickups();
        else if (path === '/settings/company/addpickup' && request.method === 'POST') response = forward.addPickup(body);
        else if (path === '/courier/generate/pickup' && request.method === 'POST') response = forward.requestPickup(body);
        else if (path === '/courier/assign/awb' && request.method === 'POST') response = assignAwb(body);
        else if (path === '/courier/generate/label' && request.method === 'POST') response = generateLabel(body, url.origin);
        else if (path.startsWith('/courier/track/awb/') && request.method === 'GET') response = tracking(decodeURIComponent(path.slice('/courier/track/awb/'.length)));
        else if (path === '/orders/cancel' && request.method === 'POST') {
          const ids = Array.isArray(body.ids) ? body.ids : [];
          for (const o of orders) if (ids.includes(o.orderId)) o.cancelled = true;
          response = new Response(null, { status: 204 });
        } else response = json({ message: '404 Not Found', status_code: 404 }, 404);
      }
      if (fault?.kind === 'slow') await Bun.sleep(fault.delayMs);
      return response;
    },
  });
  const origin = `http://127.0.0.1:${server.port}`;

  /** The body Shiprocket's tracking webhook POSTs for an AWB: its scans so far, the newest as the current status. */
  function webhookBody(awb: string, extra: Record<string, unknown> = {}): string {
    const found = orders.find((o) => o.awb === awb);
    const list = scans.get(awb) ?? [];
    const latest = [...list].reverse().find((s) => s.srStatus !== 'NA');
    const [date, time] = (latest?.date ?? '2026-01-01 00:00:00').split(' ');
    const [y, m, d] = date!.split('-');
    return JSON.stringify({
      awb,
      courier_name: found?.courierName ?? 'Delhivery Reverse',
      current_status: latest?.label ?? 'AWB ASSIGNED',
      current_status_id: 20,
      shipment_status: latest?.label ?? 'AWB ASSIGNED',
      shipment_status_id: latest?.srStatus ?? 1,
      current_timestamp: `${d} ${m} ${y} ${time}`,
      order_id: found?.channelOrderId ?? '',
      sr_order_id: found?.orderId ?? 0,
      awb_assigned_date: '2026-01-01 00:00:00',
      pickup_scheduled_date: '2026-01-01 00:00:00',
      etd: '',
      scans: list.map(activity),
      is_return: found?.kind === 'forward' ? 0 : 1,
      channel_id: 3422553,
      pod_status: '',
      pod: 'Not Available',
      ...extra,
    });
  }

  return {
    /** SHIPROCKET_API_URL for this fake */
    url: `${origin}/v1/external`,
    /** the app's settings for CARRIER=shiprocket against this fake, with the panel's webhook token */
    env: (webhookToken: string) => ({
      CARRIER: 'shiprocket',
      SHIPROCKET_API_URL: `${origin}/v1/external`,
      SHIPROCKET_EMAIL: email,
      SHIPROCKET_PASSWORD: password,
      SHIPROCKET_WEBHOOK_TOKEN: webhookToken,
      SHIPROCKET_TIMEOUT_MS: String(SHIPROCKET_TEST_TIMEOUT_MS),
    }),
    origin,
    email,
    password,
    orders,
    pickupLocations,
    requests,
    get logins() {
      return logins;
    },
    failNext(path: string, fault: ShiprocketFault) {
      faults.push({ path, fault });
    },
    /** every token issued so far stops working (Shiprocket answers 401 to it) */
    expireTokens() {
      tokens.clear();
    },
    scan(awb: string, scan: FakeScan) {
      scans.set(awb, [...(scans.get(awb) ?? []), scan]);
    },
    webhookBody,
    /** POSTs the webhook for an AWB to a URL with `x-api-key`, as the panel's webhook does */
    postWebhook(target: string, awb: string, token: string | null) {
      return fetch(target, { method: 'POST', headers: { 'content-type': 'application/json', ...(token === null ? {} : { 'x-api-key': token }) }, body: webhookBody(awb) });
    },
    stop: () => server.stop(true),
  };
}

export type FakeShiprocket = Awaited<ReturnType<typeof startFakeShiprocket>>;
