import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import sharp from 'sharp';
import { imageKey, imageKeyPrefix, variantKey } from '#api/integrations/images/index.ts';
import { removeStoredImages, saveUpload } from '#api/modules/images/service.ts';
import { backfillVariants } from '#api/modules/images/variants.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { padTo, JPEG, uploadForm } from '#tests/helpers/images.ts';

const XMP = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" dc:creator="Asha Rao"/></rdf:RDF></x:xmpmeta>';

/**
 * A real 2000×1500 JPEG with EXIF orientation 6 (it is shown rotated, 1500 wide and 2000 high), a GPS
 * position, the owner and the camera's serial in its EXIF, and XMP.
 */
let rotated: Promise<Uint8Array> | undefined;
/** Made once for the file: every database's tests upload the same bytes. */
const rotatedPhoto = () => (rotated ??= makeRotatedPhoto());
async function makeRotatedPhoto(): Promise<Uint8Array> {
  const noise = sharp({ create: { width: 2000, height: 1500, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } });
  const exif = {
    IFD0: { Artist: 'Asha Rao', Copyright: 'Asha Rao', Make: 'PhoneCo' },
    IFD2: { BodySerialNumber: 'SN-4711-0815' },
    IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 31/1 12/1', GPSLongitudeRef: 'E', GPSLongitude: '13/1 24/1 0/1' },
  };
  return new Uint8Array(await noise.jpeg({ quality: 85 }).withExif(exif).withMetadata({ orientation: 6 }).withXmp(XMP).toBuffer());
}

let lowQuality: Promise<Uint8Array> | undefined;
/** A 4000×3200 JPEG at quality 70 (made once for the file): over 4 MB, under the 5 MB limit. */
const lowQualityJpeg = () =>
  (lowQuality ??= sharp({ create: { width: 4000, height: 3200, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .jpeg({ quality: 70 })
    .toBuffer()
    .then((b) => new Uint8Array(b)));

/** What a served image carries besides its pixels (none of it may survive an upload). */
const metadataOf = async (bytes: Uint8Array) => {
  const meta = await sharp(bytes).metadata();
  return { exif: meta.exif, xmp: meta.xmp, iptc: meta.iptc, orientation: meta.orientation ?? 1, width: meta.width, height: meta.height };
};

describe.each(databaseKinds())('image thumbnails (%s)', (kind) => {
  let t: TestApp;
  let token: string;
  let photo: Uint8Array;

  beforeAll(async () => {
    t = await createTestApp(kind);
    token = await t.signIn('asha.rao@example.com');
    photo = await rotatedPhoto();
  }, 60_000);
  afterAll(() => t.close());

  const upload = async (bytes: Uint8Array, type = 'image/jpeg') => {
    const res = await t.request('POST', '/image/upload', { body: uploadForm({ bytes, name: 'part.jpg', type }), token });
    expect(res.status).toBe(200);
    return res.body.public_id as string;
  };
  const get = (path: string) => t.app.handle(new Request(`${TEST_ORIGIN}${path}`));
  const sizeOf = async (res: Response) => {
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    return { format: meta.format, width: meta.width, height: meta.height };
  };
  const variantsStored = (publicId: string) =>
    Promise.all([variantKey(publicId, 'w320', 'image/webp'), variantKey(publicId, 'w1280', 'image/webp')].map((k) => t.ctx.images.exists(k)));

  test('an upload is stored with 320 and 1280 px WebP variants, upright (EXIF applied), cached forever', async () => {
    const publicId = await upload(photo);
    expect(await variantsStored(publicId)).toEqual([true, true]);
    const small = await get(`/media/${publicId}.w320.webp`);
    expect(small.status).toBe(200);
    expect(small.headers.get('content-type')).toBe('image/webp');
    expect(small.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await sizeOf(small)).toEqual({ format: 'webp', width: 240, height: 320 });
    const large = await get(`/media/${publicId}.w1280.webp`);
    const largeBytes = Number(large.headers.get('content-length'));
    expect(await sizeOf(large)).toEqual({ format: 'webp', width: 960, height: 1280 });
    expect(largeBytes).toBeLessThan(photo.byteLength);
    // the original is there for the viewer to open on demand: upright, and without its metadata
    const original = new Uint8Array(await (await get(`/media/${publicId}.jpg`)).arrayBuffer());
    expect(await metadataOf(original)).toEqual({ exif: undefined, xmp: undefined, iptc: undefined, orientation: 1, width: 1500, height: 2000 });
    expect(Buffer.from(original).includes('Asha Rao')).toBe(false);
  });

  test('the photo as sent carries GPS, owner, serial and XMP; no stored copy keeps any of it (issue 25)', async () => {
    const sent = await metadataOf(photo);
    expect(sent.exif?.toString('latin1')).toContain('SN-4711-0815');
    expect(sent.xmp).toBeDefined();
    expect(sent.orientation).toBe(6);
    const publicId = await upload(photo);
    for (const key of [imageKey(publicId, 'image/jpeg'), variantKey(publicId, 'w320', 'image/webp'), variantKey(publicId, 'w1280', 'image/webp')]) {
      const stored = await t.ctx.images.get(key);
      const bytes = new Uint8Array(await new Response(stored!.body).arrayBuffer());
      expect(await metadataOf(bytes)).toMatchObject({ exif: undefined, xmp: undefined, iptc: undefined, orientation: 1 });
      for (const text of ['Asha Rao', 'SN-4711-0815', 'PhoneCo']) expect(Buffer.from(bytes).includes(text)).toBe(false);
    }
  });

  test('a JPEG under 5 MB saved at a lower quality than ours is still accepted: it is written again at a quality that fits', async () => {
    const sent = await lowQualityJpeg();
    expect(sent.byteLength).toBeGreaterThan(4_000_000); // at quality 90 it would be past 5 MB
    expect(sent.byteLength).toBeLessThan(5_242_880);
    const res = await t.request('POST', '/image/upload', { body: uploadForm({ bytes: sent, name: 'big.jpg', type: 'image/jpeg' }), token });
    expect(res.status).toBe(200);
    expect(res.body.bytes).toBeLessThanOrEqual(5_242_880);
    expect(await sizeOf(await get(`/media/${res.body.public_id}.jpg`))).toEqual({ format: 'jpeg', width: 4000, height: 3200 });
  }, 30_000);

  test('a small picture is never enlarged', async () => {
    const tiny = new Uint8Array(await sharp({ create: { width: 200, height: 100, channels: 3, background: '#888' } }).png().toBuffer());
    const publicId = await upload(tiny, 'image/png');
    expect(await sizeOf(await get(`/media/${publicId}.w1280.webp`))).toEqual({ format: 'webp', width: 200, height: 100 });
  });

  test('an image uploaded before thumbnails gets them on its first request, once', async () => {
    const publicId = await upload(photo);
    await t.ctx.images.delete([variantKey(publicId, 'w320', 'image/webp'), variantKey(publicId, 'w1280', 'image/webp')]);
    expect(await variantsStored(publicId)).toEqual([false, false]);
    const [a, b] = await Promise.all([get(`/media/${publicId}.w320.webp`), get(`/media/${publicId}.w320.webp`)]);
    expect(await sizeOf(a)).toEqual({ format: 'webp', width: 240, height: 320 });
    expect(await sizeOf(b)).toEqual({ format: 'webp', width: 240, height: 320 });
    expect(await variantsStored(publicId)).toEqual([true, true]);
  });

  test('a file that starts like a JPEG but does not decode is refused with 415, nothing stored', async () => {
    const before = await t.ctx.db.selectFrom('request_images').select('public_id').execute();
    const res = await t.request('POST', '/image/upload', { body: uploadForm({ bytes: padTo(JPEG.subarray(0, 20), 4000), name: 'part.jpg', type: 'image/jpeg' }), token });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ error: 'File part.jpg is not an image' });
    expect(await t.ctx.db.selectFrom('request_images').select('public_id').execute()).toEqual(before);
  });

  test('`images variants` (backfillVariants) makes what is missing and leaves the rest; an undecodable file is reported', async () => {
    const missing = await upload(photo);
    await t.ctx.images.delete([variantKey(missing, 'w1280', 'image/webp')]);
    // stored before uploads were decoded: it sniffs as JPEG and cannot be decoded
    const user = await t.ctx.db.selectFrom('users').select('id').where('email', '=', 'asha.rao@example.com').executeTakeFirstOrThrow();
    const broken = (await saveUpload(t.ctx, user.id, padTo(JPEG.subarray(0, 20), 4000), 'image/jpeg')).publicId;
    expect(await variantsStored(broken)).toEqual([false, false]);
    const report = await backfillVariants(t.ctx);
    expect(report.made).toBe(1);
    expect(report.failed).toEqual([{ publicId: broken, error: 'the image could not be decoded' }]);
    expect(report.present).toBe(report.total - 2);
    expect(await variantsStored(missing)).toEqual([true, true]);
    // the thumbnail URL of the undecodable image is 404: an original is never served under a thumbnail's name
    const fallback = await get(`/media/${broken}.w320.webp`);
    expect(fallback.status).toBe(404);
    expect(fallback.headers.get('content-type')).toStartWith('application/json');
    expect((await backfillVariants(t.ctx)).made).toBe(0);
  });

  test('variants are removed with their image; unknown widths and ids are 404', async () => {
    const publicId = await upload(photo);
    await removeStoredImages(t.ctx, [publicId]);
    await t.ctx.db.deleteFrom('request_images').where('public_id', '=', publicId).execute();
    const left: string[] = [];
    for await (const stored of t.ctx.images.list(imageKeyPrefix(publicId))) left.push(stored.key);
    expect(left).toEqual([]);
    expect(await t.ctx.images.exists(imageKey(publicId, 'image/jpeg'))).toBe(false);
    expect((await get(`/media/${publicId}.w320.webp`)).status).toBe(404); // not made again for a removed image
    const other = await upload(photo);
    expect((await get(`/media/${other}.w640.webp`)).status).toBe(404);
    expect((await get(`/media/${'0'.repeat(40)}.w320.webp`)).status).toBe(404);
  });
});
