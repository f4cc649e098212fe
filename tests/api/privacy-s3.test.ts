import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { strFromU8, unzipSync } from 'fflate';
import sharp from 'sharp';
import { createS3ImageStore, type ImageStore } from '#api/integrations/images/index.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { signInPerson, validRequest } from '#tests/helpers/fixtures.ts';
import { uploadForm } from '#tests/helpers/images.ts';
import { startFakeS3, type FakeS3 } from '#tests/helpers/s3.ts';

setDefaultTimeout(60_000);

/** Issue 25 with IMAGE_STORE=s3 (s3rver over a real socket): the export reads the photos from the bucket, the erasure empties it of them. */
describe.each(databaseKinds())('privacy with images in an S3 bucket (%s)', (kind) => {
  let s3: FakeS3;
  let t: TestApp;
  let bucket: ImageStore;

  beforeAll(async () => {
    s3 = await startFakeS3();
    t = await createTestApp(kind, s3.env('media/'));
    bucket = createS3ImageStore(s3.settings('media/'));
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  const keysOf = async (publicId: string) => {
    const keys: string[] = [];
    for await (const stored of bucket.list()) if (stored.key.includes(publicId)) keys.push(stored.key);
    return keys;
  };

  test('the ZIP holds the photo as the bucket keeps it; after the erasure the bucket holds neither it nor a thumbnail', async () => {
    const customer = await signInPerson(t);
    const photo = new Uint8Array(await sharp({ create: { width: 800, height: 600, channels: 3, background: '#246' } }).jpeg().toBuffer());
    const upload = await t.request('POST', '/image/upload', { body: uploadForm({ bytes: photo, name: 'part.jpg', type: 'image/jpeg' }), token: customer.token });
    expect(upload.status).toBe(200);
    const publicId = upload.body.public_id as string;
    expect((await t.request('POST', '/api/exchange', { token: customer.token, body: validRequest([{ url: upload.body.secure_url, publicId }]) })).status).toBe(201);
    expect((await keysOf(publicId)).length).toBeGreaterThan(1);

    const zip = await t.app.handle(new Request(`${TEST_ORIGIN}/api/privacy/export`, { headers: { authorization: `Bearer ${customer.token}` } }));
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    expect(JSON.parse(strFromU8(files['swappoints-data.json']!)).images).toEqual([`images/${publicId}.jpg`]);
    const original = await bucket.get(`${publicId.slice(0, 2)}/${publicId}.jpg`);
    expect(files[`images/${publicId}.jpg`]).toEqual(new Uint8Array(await new Response(original!.body).arrayBuffer()));

    expect((await t.request('DELETE', '/api/privacy/account', { token: customer.token })).status).toBe(200);
    expect(await keysOf(publicId)).toEqual([]);
    expect((await t.app.handle(new Request(`${TEST_ORIGIN}${upload.body.secure_url}`))).status).toBe(404);
  });
});
