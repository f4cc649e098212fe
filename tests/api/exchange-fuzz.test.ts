import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import fc from 'fast-check';
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import {
  createWarehouse,
  requestAt,
  shippingBody,
  signInPerson,
  uploadedImage,
  validRequest,
  warehouseBody,
  type Person,
} from '#tests/helpers/fixtures.ts';

// databases and many requests per test: more room than bun's 5 s, also when several files run together
setDefaultTimeout(60_000);

/**
 * Bad input, property-based: random ids, bodies (JSON, broken JSON, forms, files), query strings
 * and headers sent to every exchange endpoint, as a customer, an admin and nobody. None may yield
 * a 5xx, and every error is a JSON object with a string `error`.
 */

const ENDPOINTS: [method: string, path: string][] = [
  ['POST', '/api/exchange'],
  ['GET', '/api/exchange'],
  ['GET', '/api/exchange/{id}'],
  ['DELETE', '/api/exchange/{id}'],
  ['POST', '/api/exchange/{id}/shipping'],
  ['GET', '/api/admin/exchange-requests'],
  ['GET', '/api/admin/exchange-requests/counts'],
  ['GET', '/api/admin/exchange-requests/{id}'],
  ['DELETE', '/api/admin/exchange-requests/{id}'],
  ['PUT', '/api/admin/exchange-requests/{id}/status'],
  ['PUT', '/api/admin/exchange-requests/{id}/transit'],
  ['PUT', '/api/admin/exchange-requests/{id}/shipping'],
  ['POST', '/api/admin/receive'],
  ['PUT', '/api/admin/exchange-requests/{id}/credit'],
  ['POST', '/api/exchange/{id}/offer/accept'],
  ['POST', '/api/exchange/{id}/offer/decline'],
  ['POST', '/api/admin/exchange-requests/{id}/return'],
  ['POST', '/api/admin/exchange-requests/{id}/return/book'],
  ['GET', '/api/admin/exchange-requests/{id}/return/label'],
  ['GET', '/api/admin/exchange-requests/waiting-counts'],
  ['GET', '/api/admin/credit-history'],
  ['POST', '/api/admin/credit-history/{ledger}/retry'],
  ['GET', '/api/admin/warehouses'],
  ['GET', '/api/admin/risk/blocks'],
  ['POST', '/api/admin/risk/blocks'],
  ['DELETE', '/api/admin/risk/blocks/{id}'],
  ['POST', '/api/admin/warehouses'],
  ['PUT', '/api/admin/warehouses/{warehouse}'],
  ['DELETE', '/api/admin/warehouses/{warehouse}'],
];

const FIELDS = [
  'productName', 'brand', 'description', 'condition', 'images', 'carrierName', 'trackingNumber', 'shippingDate', 'notes',
  'status', 'adminFeedback', 'warehouseId', 'transitStatus', 'adminNote', 'creditAmount', 'additionalFeedback', 'name',
  'addressLine1', 'addressLine2', 'city', 'state', 'postalCode', 'country', 'contactPerson', 'contactPhone', 'isActive',
  'choice', 'address', 'phone', 'waiting', 'reason', 'entry', 'code',
];

const nasty = fc.constantFrom(
  '', ' ', '\u0000', 'a\u0000b', '%', '_', '\\', "'; drop table users; --", '\ud800', '😀'.repeat(50), 'x'.repeat(6000),
  '2026-02-30', '0000-01-01', '9999-12-31', '-1', '1e400', 'NaN', 'null', 'undefined', '[]', '{}',
);
const text = fc.oneof(fc.string(), fc.string({ unit: 'binary', maxLength: 40 }), nasty, nasty.map((n) => `HP ${n} toner`));

describe.each(databaseKinds())('bad input never breaks the API (%s)', (kind) => {
  let t: TestApp;
  let admin: Person;
  let customer: Person;
  const known = { ids: [] as string[], ledgers: [] as string[], warehouses: [] as string[], images: [] as { url: string; publicId: string }[] };

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signInPerson(t, 'valuer@swappoints.example', { admin: true });
    customer = await signInPerson(t);
    const w = (await createWarehouse(t, admin)).id;
    known.warehouses.push(w);
    for (const stage of ['pending', 'approved', 'shipped', 'received', 'credited'] as const) known.ids.push(await requestAt(t, stage, customer, admin, w));
    known.ledgers = (await t.ctx.db.selectFrom('credit_ledger').select('id').execute()).map((r) => String(r.id));
    for (let i = 0; i < 5; i++) known.images.push(await uploadedImage(t, customer.id));
  });
  afterAll(() => t.close());

  const value = () =>
    fc.oneof(
      text,
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constantFrom('approved', 'declined', 'completed', 'pending', 'received', 'new', 'poor', '2026-11-20', 500, 0.4, -3),
      fc.constantFrom(...known.warehouses),
      fc.array(fc.oneof(fc.constantFrom(...known.images), fc.record({ url: text, publicId: text }), fc.anything()), { maxLength: 7 }),
      fc.jsonValue({ maxDepth: 2 }),
    );

  const segment = () =>
    fc.oneof(
      fc.constantFrom(...known.ids, ...known.ledgers, ...known.warehouses),
      fc.uuid().map(String),
      text.map((s) => encodeURIComponent((s as string & { toWellFormed(): string }).toWellFormed())),
      fc.constantFrom('%', '%zz', '%E0%A4%A', '..', '%2e%2e', '%00', '0', '-1', '1.5', '99999999999999999999', 'counts'),
    );

  /** A body the endpoint would accept, so that mutating a few of its fields reaches the deep code. */
  const validBodyFor = (template: string): Record<string, unknown> => {
    if (template === '/api/exchange') return validRequest([known.images[0]!]);
    if (template.endsWith('/shipping')) return shippingBody();
    if (template.endsWith('/status')) return { status: 'approved', warehouseId: known.warehouses[0], adminFeedback: 'ok' };
    if (template.endsWith('/transit')) return { transitStatus: 'received', adminNote: 'fine' };
    if (template.endsWith('/credit')) return { creditAmount: 100, additionalFeedback: 'fair' };
    if (template.startsWith('/api/admin/warehouses')) return warehouseBody();
    return {};
  };

  type Body = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string; type: string } | { kind: 'form'; fields: [string, string][]; file?: Uint8Array };
  const body = (template: string): fc.Arbitrary<Body> =>
    fc.oneof(
      fc.constant({ kind: 'none' as const }),
      fc
        .dictionary(fc.constantFrom(...Object.keys(validBodyFor(template)), 'images'), value(), { minKeys: 1, maxKeys: 3 })
        .map((changes) => ({ kind: 'json' as const, value: { ...validBodyFor(template), ...changes } })),
      fc
        .dictionary(fc.constantFrom(...Object.keys(validBodyFor(template)), 'images'), nasty, { minKeys: 1, maxKeys: 2 })
        .map((changes) => ({ kind: 'json' as const, value: { ...validBodyFor(template), ...changes } })),
      fc.dictionary(fc.constantFrom(...FIELDS), value(), { maxKeys: 8 }).map((v) => ({ kind: 'json' as const, value: v })),
      fc.jsonValue().map((v) => ({ kind: 'json' as const, value: v })),
      fc.record({
        text: fc.oneof(text, fc.constantFrom('{', '{"status":', '[1,2', 'null', '"x"', '{"creditAmount":1e999}')),
        type: fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'application/xml', '', 'application/json; charset=utf-16'),
      }).map((r) => ({ kind: 'raw' as const, ...r })),
      fc.record({
        fields: fc.array(fc.tuple(fc.constantFrom(...FIELDS, 'file', 'upload_preset'), fc.string()), { maxLength: 5 }),
        file: fc.option(fc.uint8Array({ maxLength: 2048 }), { nil: undefined }),
      }).map((r) => ({ kind: 'form' as const, ...r })),
    );

  const query = fc.dictionary(
    fc.oneof(fc.constantFrom('page', 'pageSize', 'q', 'q', 'status', 'tab'), fc.string({ maxLength: 8 })),
    fc.oneof(fc.integer({ min: -5, max: 200 }).map(String), text, nasty, fc.constantFrom('1e3', '0x10', ' 2', '100', '1', 'success', 'failed', 'pending')),
    { maxKeys: 5 },
  );

  const printable = fc.string({ maxLength: 60 }).map((s) => s.replace(/[^\x20-\x7e]/g, ''));
  const headers = fc.record(
    {
      accept: fc.constantFrom('application/json', '*/*', 'text/html', 'image/png'),
      'x-request-id': printable,
      'content-length-ish': printable,
      'sec-fetch-site': fc.constantFrom('same-origin', 'cross-site', 'none', 'same-site'),
      origin: fc.constantFrom(TEST_ORIGIN, 'https://evil.example', 'null'),
      cookie: printable.map((s) => `sp_session=${s}`),
    },
    { requiredKeys: [] },
  );

  const who = fc.constantFrom('customer', 'admin', 'nobody', 'garbage') as fc.Arbitrary<'customer' | 'admin' | 'nobody' | 'garbage'>;

  async function send(method: string, template: string, input: { id: string; q: Record<string, string>; body: Body; headers: Record<string, string>; who: string }) {
    const path = template.replace(/\{(id|ledger|warehouse)\}/, input.id);
    const qs = new URLSearchParams(input.q).toString();
    const hdrs: Record<string, string> = { ...input.headers };
    delete hdrs['content-length-ish'];
    if (input.who === 'customer') hdrs.authorization = `Bearer ${customer.token}`;
    if (input.who === 'admin') hdrs.authorization = `Bearer ${admin.token}`;
    if (input.who === 'garbage') hdrs.authorization = `Bearer ${input.headers['content-length-ish'] ?? 'x'}`;
    let payload: BodyInit | undefined;
    if (method !== 'GET' && input.body.kind === 'json') {
      payload = JSON.stringify(input.body.value) ?? 'null';
      hdrs['content-type'] = 'application/json';
    } else if (method !== 'GET' && input.body.kind === 'raw') {
      payload = input.body.text;
      if (input.body.type) hdrs['content-type'] = input.body.type;
    } else if (method !== 'GET' && input.body.kind === 'form') {
      const form = new FormData();
      for (const [k, v] of input.body.fields) form.append(k, v);
      if (input.body.file) form.append('file', new File([input.body.file as Uint8Array<ArrayBuffer>], 'part.png'));
      payload = form;
    }
    const response = await t.app.handle(new Request(`${TEST_ORIGIN}${path}${qs ? `?${qs}` : ''}`, { method, headers: hdrs, body: payload }));
    const raw = await response.text();
    return { status: response.status, raw, type: response.headers.get('content-type') ?? '' };
  }

  for (const [method, template] of ENDPOINTS) {
    test(`${method} ${template}: no 5xx, every error is { error } JSON`, async () => {
      await fc.assert(
        fc.asyncProperty(segment(), query, body(template), headers, who, async (id, q, b, h, w) => {
          const res = await send(method, template, { id, q, body: b, headers: h as Record<string, string>, who: w });
          if (res.status >= 500) throw new Error(`${res.status} for ${method} ${template}: ${res.raw.slice(0, 300)}`);
          if (res.status >= 400) {
            expect(res.type).toContain('application/json');
            const parsed = JSON.parse(res.raw);
            expect(typeof parsed).toBe('object');
            expect(typeof parsed.error).toBe('string');
            expect(parsed.error.length).toBeGreaterThan(0);
          }
        }),
        { numRuns: 100 },
      );
    });
  }
});
