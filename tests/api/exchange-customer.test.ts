import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import {
  createRequest,
  createWarehouse,
  mailsTo,
  requestAt,
  shippingBody,
  signInPerson,
  uploadedImage,
  validRequest,
  type Person,
} from '#tests/helpers/fixtures.ts';
import { png, uploadForm } from '#tests/helpers/images.ts';

// databases and many requests per test: more room than bun's 5 s, also when several files run together
setDefaultTimeout(60_000);

const NOT_FOUND = "Exchange request not found or you don't have permission to view it.";

describe.each(databaseKinds())('customer exchange calls (%s)', (kind) => {
  let t: TestApp;
  let admin: Person;
  let customer: Person;
  let other: Person;
  let warehouseId: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { ADMIN_EMAILS: 'ops@swappoints.example, Desk@SwapPoints.example' });
    admin = await signInPerson(t, 'admin.user@swappoints.example', { admin: true });
    customer = await signInPerson(t);
    other = await signInPerson(t);
    warehouseId = (await createWarehouse(t, admin)).id;
  });
  afterAll(() => t.close());

  const post = (body: unknown, who: Person = customer) => t.request('POST', '/api/exchange', { token: who.token, body });

  describe('POST /api/exchange', () => {
    test("each of productName, brand, description and condition is required: 'Please fill in all required fields'", async () => {
      const image = await uploadedImage(t, customer.id);
      const before = (await t.ctx.db.selectFrom('exchange_requests').select('id').where('user_id', '=', customer.id).execute()).length;
      for (const field of ['productName', 'brand', 'description', 'condition']) {
        for (const value of [undefined, '', '   ', null, 42, ['x']]) {
          const body = validRequest([image], { [field]: value });
          if (value === undefined) delete (body as Record<string, unknown>)[field];
          const res = await post(body);
          expect(res.status).toBe(400);
          expect(res.body).toEqual({ error: 'Please fill in all required fields' });
        }
      }
      // nothing was created and the upload is still free
      expect(await t.ctx.db.selectFrom('exchange_requests').select('id').where('user_id', '=', customer.id).execute()).toHaveLength(before);
    });

    test("at least one image is required: 'Please upload at least one image of the product'", async () => {
      for (const images of [undefined, null, []]) {
        const body = validRequest([], { images });
        const res = await post(body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'Please upload at least one image of the product' });
      }
    });

    test('condition is one of the six values', async () => {
      for (const condition of ['new', 'like_new', 'very_good', 'good', 'fair', 'poor']) {
        const res = await post(validRequest([await uploadedImage(t, customer.id)], { condition }));
        expect(res.status).toBe(201);
      }
      for (const condition of ['NEW', 'mint', 'like new', 'broken']) {
        const res = await post(validRequest([await uploadedImage(t, customer.id)], { condition }));
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('Please choose a valid condition: new, like_new, very_good, good, fair, poor');
      }
    });

    test("images must be the customer's own unattached uploads, at most five", async () => {
      const foreign = await uploadedImage(t, other.id);
      const res = await post(validRequest([foreign]));
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('is not one of your uploads');
      const made = await post(validRequest([{ url: '/media/' + 'a'.repeat(40) + '.png', publicId: 'a'.repeat(40) }]));
      expect(made.status).toBe(400);
      const six = await Promise.all(Array.from({ length: 6 }, () => uploadedImage(t, customer.id)));
      const tooMany = await post(validRequest(six));
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.error).toBe('You can attach at most 5 images');
      // an image already used by one request cannot be used by another
      const used = await uploadedImage(t, customer.id);
      expect((await post(validRequest([used]))).status).toBe(201);
      expect((await post(validRequest([used]))).status).toBe(400);
    });

    test('answers 201 { id }; the request is pending, with the email, the shop currency, the images in order and a created event', async () => {
      const images = [await uploadedImage(t, customer.id), await uploadedImage(t, customer.id), await uploadedImage(t, customer.id)];
      const res = await post(validRequest(images, { productName: '  Canon PG-245 Cartridge  ' }));
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(['id']);
      const row = await t.ctx.db.selectFrom('exchange_requests').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'pending', customer_email: customer.email, currency: t.ctx.settings.shopCurrency, product_name: 'Canon PG-245 Cartridge' });
      const detail = await t.request('GET', `/api/exchange/${res.body.id}`, { token: customer.token });
      expect(detail.body.images).toEqual(images);
      expect(detail.body.events).toEqual([
        expect.objectContaining({ type: 'created', actorEmail: customer.email, actorRole: 'customer', fromStatus: null, toStatus: 'pending' }),
      ]);
    });

    test('every admin (ADMIN_EMAILS and admin users) gets one mail about each new request', async () => {
      const id = await createRequest(t, customer, { productName: 'Epson T664 Ink Bottle' });
      for (const to of ['ops@swappoints.example', 'desk@swappoints.example', admin.email]) {
        const mails = (await mailsTo(t, to, 'admin_new_request')).filter((m) => m.link?.endsWith(`/admin/exchange/${id}`));
        expect(mails).toHaveLength(1);
        expect(mails[0]!.subject).toBe('New exchange request: Epson T664 Ink Bottle');
        expect(mails[0]!.text_body).toContain(customer.email);
      }
      expect((await mailsTo(t, customer.email, 'admin_new_request')).length).toBe(0);
    });

    test('overlong text is refused with a clear message', async () => {
      const res = await post(validRequest([await uploadedImage(t, customer.id)], { productName: 'x'.repeat(201) }));
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Product Name can be at most 200 characters.');
      const brand = await post(validRequest([await uploadedImage(t, customer.id)], { brand: 'x'.repeat(101) }));
      expect(brand.body.error).toBe('Brand can be at most 100 characters.');
      const description = await post(validRequest([await uploadedImage(t, customer.id)], { description: 'x'.repeat(5001) }));
      expect(description.body.error).toBe('Description can be at most 5000 characters.');
    });
  });

  describe('GET /api/exchange', () => {
    let person: Person;
    beforeAll(async () => {
      person = await signInPerson(t);
      const make = async (productName: string, brand: string, description: string) => {
        await createRequest(t, person, { productName, brand, description });
        await Bun.sleep(5); // distinct created_at, so "newest first" is observable
      };
      await make('Toner Cartridge 12A', 'HP', 'Half full');
      await make('Fuser Unit', 'Brother', 'Works, some toner dust');
      await make('Drum 100% OK', 'Canon', 'Like new drum');
      await make('Paper tray', 'Epson', 'Cracked_corner');
    });

    test('the customer sees only their own requests, newest first, as a plain array', async () => {
      const res = await t.request('GET', '/api/exchange', { token: person.token });
      expect(res.status).toBe(200);
      expect(res.body.map((r: { productName: string }) => r.productName)).toEqual(['Paper tray', 'Drum 100% OK', 'Fuser Unit', 'Toner Cartridge 12A']);
      expect(res.headers.get('x-total-count')).toBe('4');
      const mine = await t.request('GET', '/api/exchange', { token: other.token });
      expect(mine.body.every((r: { id: string }) => !res.body.some((x: { id: string }) => x.id === r.id))).toBe(true);
    });

    test('q searches product name, brand and description, case-insensitively; % and _ are literal', async () => {
      const names = async (q: string) =>
        (await t.request('GET', `/api/exchange?q=${encodeURIComponent(q)}`, { token: person.token })).body.map((r: { productName: string }) => r.productName);
      expect(await names('toner')).toEqual(['Fuser Unit', 'Toner Cartridge 12A']);
      expect(await names('BROTHER')).toEqual(['Fuser Unit']);
      expect(await names('like new')).toEqual(['Drum 100% OK']);
      expect(await names('%')).toEqual(['Drum 100% OK']);
      expect(await names('_')).toEqual(['Paper tray']);
      expect(await names('like_new')).toEqual([]); // condition is not searched
      expect(await names('nothing-like-this')).toEqual([]);
    });

    test('status filters; page and pageSize page in SQL with the total in X-Total-Count', async () => {
      const pending = await t.request('GET', '/api/exchange?status=pending', { token: person.token });
      expect(pending.body).toHaveLength(4);
      expect((await t.request('GET', '/api/exchange?status=approved', { token: person.token })).body).toEqual([]);
      const page2 = await t.request('GET', '/api/exchange?page=2&pageSize=3', { token: person.token });
      expect(page2.status).toBe(200);
      expect(page2.headers.get('x-total-count')).toBe('4');
      expect(page2.body.map((r: { productName: string }) => r.productName)).toEqual(['Toner Cartridge 12A']);
      const firstOnly = await t.request('GET', '/api/exchange?pageSize=1', { token: person.token });
      expect(firstOnly.body.map((r: { productName: string }) => r.productName)).toEqual(['Paper tray']);
      expect(firstOnly.headers.get('x-total-count')).toBe('4');
      const defaultSize = await t.request('GET', '/api/exchange?page=1', { token: person.token });
      expect(defaultSize.body).toHaveLength(4);
      expect(defaultSize.headers.get('x-total-count')).toBe('4');
      // a full last page, a page past the end, and a filter with nothing: the total is the list's, not the page's
      const fullLast = await t.request('GET', '/api/exchange?page=2&pageSize=2', { token: person.token });
      expect(fullLast.body.map((r: { productName: string }) => r.productName)).toEqual(['Fuser Unit', 'Toner Cartridge 12A']);
      expect(fullLast.headers.get('x-total-count')).toBe('4');
      const pastEnd = await t.request('GET', '/api/exchange?page=3&pageSize=3', { token: person.token });
      expect(pastEnd.body).toEqual([]);
      expect(pastEnd.headers.get('x-total-count')).toBe('4');
      const none = await t.request('GET', '/api/exchange?status=approved&page=1', { token: person.token });
      expect(none.body).toEqual([]);
      expect(none.headers.get('x-total-count')).toBe('0');
    });

    test('bad paging is a 400 with a clear error', async () => {
      for (const [query, error] of [
        ['pageSize=101', 'pageSize must be a whole number from 1 to 100'],
        ['pageSize=0', 'pageSize must be a whole number from 1 to 100'],
        ['page=0', 'page must be a whole number of at least 1'],
        ['page=abc', 'page must be a whole number of at least 1'],
        ['status=shipped', 'status must be one of pending, approved, declined, completed'],
      ] as const) {
        const res = await t.request('GET', `/api/exchange?${query}`, { token: person.token });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error });
      }
    });
  });

  describe('GET /api/exchange/{id}', () => {
    test('another customer’s request, a missing one and a malformed id are all 404 with the spec’s text', async () => {
      const id = await createRequest(t, customer);
      for (const path of [`/api/exchange/${id}`, `/api/exchange/${crypto.randomUUID()}`, '/api/exchange/not-a-uuid', '/api/exchange/1']) {
        const res = await t.request('GET', path, { token: other.token });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: NOT_FOUND });
      }
    });

    test('an approved request carries the warehouse address as it was at approval; admin emails stay hidden', async () => {
      const w = await createWarehouse(t, admin, { name: 'Pune Depot', city: 'Pune', state: 'Maharashtra', contactPerson: null, contactPhone: null });
      const id = await requestAt(t, 'approved', customer, admin, w.id);
      await t.request('PUT', `/api/admin/warehouses/${w.id}`, { token: admin.token, body: { ...w, name: 'Pune Depot (moved)', city: 'Mumbai' } });
      const res = await t.request('GET', `/api/exchange/${id}`, { token: customer.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'approved', transitStatus: null, shippingDetails: null, trackingNumber: null, warehouseId: w.id, creditAmount: 0 });
      expect(res.body.warehouseInfo).toEqual({
        id: w.id,
        name: 'Pune Depot',
        addressLine1: 'Plot 18, Peenya Industrial Area',
        addressLine2: 'Phase 2',
        city: 'Pune',
        state: 'Maharashtra',
        postalCode: '560058',
        country: 'India',
        contactPerson: null,
        contactPhone: null,
      });
      const approved = res.body.events.find((e: { type: string }) => e.type === 'approved');
      expect(approved).toMatchObject({ actorRole: 'admin', actorEmail: null, fromStatus: 'pending', toStatus: 'approved' });
    });
  });

  describe('DELETE /api/exchange/{id}', () => {
    test('the owner cancels a pending request: the row and its images go (files too), the history stays', async () => {
      const up = await t.request('POST', '/image/upload', { token: customer.token, body: uploadForm({ bytes: png(2, 2), name: 'part.png', type: 'image/png' }) });
      expect(up.status).toBe(200);
      const image = { url: up.body.secure_url, publicId: up.body.public_id };
      const created = await post(validRequest([image]));
      const id = created.body.id;
      expect((await t.app.handle(new Request(`http://localhost${image.url}`))).status).toBe(200);

      const res = await t.request('DELETE', `/api/exchange/${id}`, { token: customer.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, id });
      expect((await t.request('GET', `/api/exchange/${id}`, { token: customer.token })).status).toBe(404);
      expect(await t.ctx.db.selectFrom('request_images').select('id').where('public_id', '=', image.publicId).execute()).toHaveLength(0);
      expect((await t.app.handle(new Request(`http://localhost${image.url}`))).status).toBe(404);
      const events = await t.ctx.db.selectFrom('request_events').select(['type', 'actor_role', 'from_status']).where('request_id', '=', id).orderBy('id').execute();
      expect(events).toEqual([
        { type: 'created', actor_role: 'customer', from_status: null },
        { type: 'cancelled', actor_role: 'customer', from_status: 'pending' },
      ]);
    });

    test("only a pending request: otherwise 409 'Only a pending request can be cancelled.'", async () => {
      for (const stage of ['approved', 'declined'] as const) {
        const id = await requestAt(t, stage, customer, admin, warehouseId);
        const res = await t.request('DELETE', `/api/exchange/${id}`, { token: customer.token });
        expect(res.status).toBe(409);
        expect(res.body).toEqual({ error: 'Only a pending request can be cancelled.' });
      }
    });

    test('someone else’s request is 404 before any state rule, and stays', async () => {
      for (const stage of ['pending', 'approved'] as const) {
        const id = await requestAt(t, stage, customer, admin, warehouseId);
        const res = await t.request('DELETE', `/api/exchange/${id}`, { token: other.token });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: NOT_FOUND });
        expect((await t.request('GET', `/api/exchange/${id}`, { token: customer.token })).status).toBe(200);
      }
    });
  });

  describe('POST /api/exchange/{id}/shipping', () => {
    test("carrier, tracking number and a real yyyy-mm-dd date are required: 'Please fill in all required shipping fields'", async () => {
      const id = await requestAt(t, 'approved', customer, admin, warehouseId);
      const bad = [
        { carrierName: '' },
        { carrierName: null },
        { trackingNumber: '   ' },
        { trackingNumber: undefined },
        { shippingDate: '' },
        { shippingDate: '2026/11/20' },
        { shippingDate: '20-11-2026' },
        { shippingDate: '2026-02-30' },
        { shippingDate: '2026-13-01' },
        { shippingDate: '0000-01-01' },
        { shippingDate: 20261120 },
      ];
      for (const override of bad) {
        const body: Record<string, unknown> = shippingBody(override);
        for (const [k, v] of Object.entries(override)) if (v === undefined) delete body[k];
        const res = await t.request('POST', `/api/exchange/${id}/shipping`, { token: customer.token, body });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'Please fill in all required shipping fields' });
      }
      expect((await t.request('GET', `/api/exchange/${id}`, { token: customer.token })).body.shippingDetails).toBeNull();
    });

    test('overlong shipping text is refused naming the field as the form labels it', async () => {
      const id = await requestAt(t, 'approved', customer, admin, warehouseId);
      const cases: [Record<string, string>, string][] = [
        [{ carrierName: 'x'.repeat(101) }, 'Carrier Name can be at most 100 characters.'],
        [{ trackingNumber: 'x'.repeat(101) }, 'Tracking Number can be at most 100 characters.'],
        [{ notes: 'x'.repeat(2001) }, 'Additional Notes can be at most 2000 characters.'],
      ];
      for (const [override, error] of cases) {
        const res = await t.request('POST', `/api/exchange/${id}/shipping`, { token: customer.token, body: shippingBody(override) });
        expect([res.status, res.body]).toEqual([400, { error }]);
      }
    });

    test('an approved request gets its shipping details once; the item is then shipped', async () => {
      const id = await requestAt(t, 'approved', customer, admin, warehouseId);
      const { notes: _notes, ...withoutNotes } = shippingBody({ shippingDate: '2024-02-29' });
      const res = await t.request('POST', `/api/exchange/${id}/shipping`, { token: customer.token, body: withoutNotes });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id,
        status: 'approved',
        transitStatus: 'shipped',
        trackingNumber: 'BD123456789IN',
        shippingDetails: { carrierName: 'Blue Dart', trackingNumber: 'BD123456789IN', shippingDate: '2024-02-29', notes: null },
      });
      const again = await t.request('POST', `/api/exchange/${id}/shipping`, { token: customer.token, body: shippingBody() });
      expect(again.status).toBe(409);
      expect(again.body.error).toBe('Shipping details have already been submitted for this request.');
      const events = (await t.request('GET', `/api/exchange/${id}`, { token: customer.token })).body.events;
      expect(events.at(-1)).toMatchObject({ type: 'shipped', actorRole: 'customer', actorEmail: customer.email, fromStatus: null, toStatus: 'shipped' });
    });

    test('a pending or declined request cannot get shipping details (409); another customer’s is 404', async () => {
      for (const stage of ['pending', 'declined'] as const) {
        const id = await requestAt(t, stage, customer, admin, warehouseId);
        const res = await t.request('POST', `/api/exchange/${id}/shipping`, { token: customer.token, body: shippingBody() });
        expect(res.status).toBe(409);
        expect(res.body.error).toBe('Shipping details can only be added once the request is approved.');
      }
      const id = await requestAt(t, 'approved', customer, admin, warehouseId);
      const res = await t.request('POST', `/api/exchange/${id}/shipping`, { token: other.token, body: shippingBody() });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: NOT_FOUND });
    });
  });
});
