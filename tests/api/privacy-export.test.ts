import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { strFromU8, unzipSync } from 'fflate';
import sharp from 'sharp';
import { imageKey } from '#api/integrations/images/index.ts';
import { addCustomer, importCustomerExport } from '#api/modules/customers/service.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { createWarehouse, requestAt, signInPerson, uniqueEmail, validRequest, type Person } from '#tests/helpers/fixtures.ts';
import { uploadForm } from '#tests/helpers/images.ts';

setDefaultTimeout(60_000);

/** Issue 25, point 1: a customer downloads everything held about them, and only about them, as a ZIP. */
describe.each(databaseKinds())('privacy: export (%s)', (kind) => {
  let t: TestApp;
  let admin: Person;
  let warehouseId: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signInPerson(t, 'admin.user@swappoints.example', { admin: true });
    warehouseId = (await createWarehouse(t, admin)).id;
  });
  afterAll(() => t.close());

  const download = async (token?: string, query = '') => {
    const res = await t.app.handle(new Request(`${TEST_ORIGIN}/api/privacy/export${query}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }));
    return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
  };

  test('the ZIP holds one JSON file with the profile, requests, shipping, credit and mails, and the photos as stored', async () => {
    const email = uniqueEmail('export');
    await addCustomer(t.ctx.db, { email, name: 'Meera Export' });
    const customer = await signInPerson(t, email);
    const credited = await requestAt(t, 'credited', customer, admin, warehouseId, 250);
    const photo = new Uint8Array(await sharp({ create: { width: 300, height: 200, channels: 3, background: '#c33' } }).png().toBuffer());
    const upload = await t.request('POST', '/image/upload', { body: uploadForm({ bytes: photo, name: 'p.png', type: 'image/png' }), token: customer.token });
    expect(upload.status).toBe(200);
    expect((await t.request('POST', '/api/exchange', { token: customer.token, body: validRequest([{ url: upload.body.secure_url, publicId: upload.body.public_id }]) })).status).toBe(201);

    const { res, bytes } = await download(customer.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toContain('attachment; filename="swappoints-my-data.zip"');
    const files = unzipSync(bytes);
    const data = JSON.parse(strFromU8(files['swappoints-data.json']!));
    expect(data.email).toBe(email);
    expect(data.users).toMatchObject({ email, name: 'Meera Export' });
    const shipped = data.exchange_requests.find((r: { id: string }) => r.id === credited);
    expect(shipped).toMatchObject({ shippingCarrier: 'Blue Dart', trackingNumber: 'BD123456789IN', shippingNotes: 'Packed in the original box' });
    expect(data.credit_ledger).toEqual([expect.objectContaining({ requestId: credited, amount: '250.00' })]);
    expect(data.mail_outbox.map((m: { kind: string }) => m.kind)).toContain('request_approved');
    expect(data.mail_outbox.some((m: { kind: string }) => m.kind === 'sign_in')).toBe(false);
    expect(data.sessions.length).toBeGreaterThan(0);
    // the consents (the terms agreed to at sign-in) and each request's offer fields
    expect(data.terms_agreements).toEqual([expect.objectContaining({ version: expect.any(String), agreedAt: expect.any(String) })]);
    expect(shipped).toMatchObject({ offerStatus: null, returnChoice: null, photosRemovedAt: null });
    // every photo of theirs is listed; each one the store holds is in the ZIP byte for byte (the fixture's first request has a row only)
    expect(data.request_images).toHaveLength(2);
    expect(data.images).toHaveLength(1);
    const name = `images/${upload.body.public_id}.png`;
    expect(data.images).toContain(name);
    const stored = await t.ctx.images.get(imageKey(upload.body.public_id, 'image/png'));
    expect(files[name]).toEqual(new Uint8Array(await new Response(stored!.body).arrayBuffer()));
  });

  test("the default address kept from the shop's export is in the ZIP", async () => {
    const email = uniqueEmail('export');
    await importCustomerExport(t.ctx.db, `Email,First Name,Default Address Address1,Default Address City,Default Address Province Code,Default Address Country Code,Default Address Zip,Phone\n${email},Leela,7 Beach Road,Kochi,KL,IN,'682001,'+919800000009\n`);
    const customer = await signInPerson(t, email);
    const data = JSON.parse(strFromU8(unzipSync((await download(customer.token)).bytes)['swappoints-data.json']!));
    expect(data.shop_customer_addresses).toEqual([
      { addressLine1: '7 Beach Road', addressLine2: null, city: 'Kochi', state: 'Kerala', postalCode: '682001', countryCode: 'IN', phone: '+919800000009', updatedAt: expect.any(String) },
    ]);
  });

  test("a ZIP names only its owner: another customer's and an admin's exports hold nothing of them, whatever the query says", async () => {
    const owner = await signInPerson(t);
    await requestAt(t, 'approved', owner, admin, warehouseId);
    const other = await signInPerson(t);
    for (const who of [other, admin]) {
      const { res, bytes } = await download(who.token, `?email=${encodeURIComponent(owner.email)}&userId=${owner.id}`);
      expect(res.status).toBe(200);
      const text = strFromU8(unzipSync(bytes)['swappoints-data.json']!);
      expect(text).not.toContain(owner.email);
      expect(text).not.toContain(owner.id);
      expect(JSON.parse(text).email).toBe(who.email);
    }
  });

  test('without a session there is no ZIP (401), documented like every answer', async () => {
    expect((await t.request('GET', '/api/privacy/export')).status).toBe(401);
    expect((await t.request('GET', '/api/privacy/export', { token: 'not-a-token' })).status).toBe(401);
  });
});
