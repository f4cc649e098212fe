import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { sql } from 'kysely';
import sharp from 'sharp';
import { createS3ImageStore, imageKey, imageKeyPrefix, variantKey, type ImageStore } from '#api/integrations/images/index.ts';
import { removeStoredImages, removeUnattachedUploads } from '#api/modules/images/service.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { GIF, png, uploadForm } from '#tests/helpers/images.ts';
import { startFakeS3, type FakeS3 } from '#tests/helpers/s3.ts';

setDefaultTimeout(60_000);

/** The image service with IMAGE_STORE=s3: uploads, /media and the cleanup go to the bucket, never to MEDIA_DIR. */
describe.each(databaseKinds())('images in an S3 bucket (%s)', (kind) => {
  let s3: FakeS3;
  let t: TestApp;
  let bucket: ImageStore;
  let token: string;
  beforeAll(async () => {
    s3 = await startFakeS3();
    t = await createTestApp(kind, s3.env('media/'));
    bucket = createS3ImageStore(s3.settings('media/'));
    token = await t.signIn('asha.rao@example.com');
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
  });

  const upload = async (bytes: Uint8Array, name: string) => {
    const res = await t.request('POST', '/image/upload', { body: uploadForm({ bytes, name }), token });
    expect(res.status).toBe(200);
    return res.body as { secure_url: string; public_id: string };
  };
  const get = (path: string, headers: Record<string, string> = {}) => t.app.handle(new Request(`${TEST_ORIGIN}${path}`, { headers }));

  test('an upload is stored in the bucket (not MEDIA_DIR) and streamed back from /media with its headers', async () => {
    const bytes = png(64, 48);
    const { secure_url, public_id } = await upload(bytes, 'drum.png');
    expect(secure_url).toBe(`/media/${public_id}.png`);
    const key = imageKey(public_id, 'image/png');
    // the bucket holds the picture as written again at upload (decoded, without metadata)
    const inBucket = new Uint8Array(await new Response((await bucket.get(key))!.body).arrayBuffer());
    expect((await sharp(inBucket).metadata()).width).toBe(64);
    expect(existsSync(t.ctx.settings.mediaDir)).toBe(false);

    const served = await get(secure_url);
    expect(served.status).toBe(200);
    expect(Object.fromEntries(['content-type', 'content-length', 'cache-control', 'x-content-type-options', 'etag'].map((h) => [h, served.headers.get(h)]))).toEqual({
      'content-type': 'image/png',
      'content-length': String(inBucket.byteLength),
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
      etag: `"${public_id}"`,
    });
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(inBucket);
    expect((await get(secure_url, { 'if-none-match': `"${public_id}"` })).status).toBe(304);
    expect((await get(`/media/${public_id}.jpg`)).status).toBe(404);
    expect((await get(`/media/${'0'.repeat(40)}.png`)).status).toBe(404);
  });

  test('removing an image removes its upload and every variant from the bucket', async () => {
    const { public_id } = await upload(GIF, 'x.gif');
    await bucket.put(variantKey(public_id, 'w320', 'image/webp'), new Uint8Array([1]), 'image/webp');
    await bucket.put(variantKey(public_id, 'w640', 'image/webp'), new Uint8Array([2]), 'image/webp');
    await removeStoredImages(t.ctx, [public_id]);
    const left: string[] = [];
    for await (const stored of bucket.list(imageKeyPrefix(public_id))) left.push(stored.key);
    expect(left).toEqual([]);
  });

  test('the cleanup job removes unattached uploads older than a day from the bucket, and only those', async () => {
    const old = await upload(png(8, 8), 'old.png');
    const fresh = await upload(png(9, 9), 'fresh.png');
    await bucket.put(variantKey(old.public_id, 'w320', 'image/webp'), new Uint8Array([1]), 'image/webp');
    await sql`update request_images set created_at = ${new Date(Date.now() - 25 * 3_600_000)} where public_id = ${old.public_id}`.execute(t.ctx.db);
    expect(await removeUnattachedUploads(t.ctx)).toBe(1);
    expect(await bucket.exists(imageKey(old.public_id, 'image/png'))).toBe(false);
    expect(await bucket.exists(variantKey(old.public_id, 'w320', 'image/webp'))).toBe(false);
    expect((await get(old.secure_url)).status).toBe(404);
    expect(await bucket.exists(imageKey(fresh.public_id, 'image/png'))).toBe(true);
    expect((await get(fresh.secure_url)).status).toBe(200);
  });
});

describe('images while the bucket is out of reach', () => {
  test('an upload or an image is a 503 saying to try again, no row is left behind, and it works again once the bucket is back', async () => {
    const s3 = await startFakeS3();
    const t = await createTestApp('pglite', s3.env());
    try {
      const token = await t.signIn('ravi.iyer@example.com');
      const ok = await t.request('POST', '/image/upload', { body: uploadForm({ bytes: GIF, name: 'a.gif' }), token });
      expect(ok.status).toBe(200);
      await s3.close();
      const refused = await t.request('POST', '/image/upload', { body: uploadForm({ bytes: GIF, name: 'b.gif' }), token });
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ error: 'Images cannot be stored or shown right now. Please try again in a few minutes.' });
      expect(refused.headers.get('retry-after')).toBe('30');
      expect(await t.ctx.db.selectFrom('request_images').select('public_id').execute()).toEqual([{ public_id: ok.body.public_id }]);
      const media = await t.app.handle(new Request(`${TEST_ORIGIN}${ok.body.secure_url}`));
      expect(media.status).toBe(503);
    } finally {
      await t.close();
    }
  });
});
