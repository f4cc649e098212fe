import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { rmSync } from 'node:fs';
import sharp from 'sharp';
import { imageKey } from '#api/integrations/images/index.ts';
import { saveUpload } from '#api/modules/images/service.ts';
import { releaseEmbedded, runCli, tempDataDir, testSession } from '#tests/helpers/cli.ts';
import { JPEG, padTo, png } from '#tests/helpers/images.ts';

setDefaultTimeout(60_000);

describe('swappoints images strip-metadata', () => {
  let dataDir: string;
  let env: Record<string, string | undefined>;
  let photoId: string;
  let brokenId: string;
  let photo: Uint8Array;

  /** The stored original of the photo: its bytes, metadata and row size. */
  const storedPhoto = async () => {
    const session = testSession(env);
    const ctx = await session.context();
    const object = await ctx.images.get(imageKey(photoId, 'image/jpeg'));
    const bytes = new Uint8Array(await new Response(object!.body).arrayBuffer());
    const row = await ctx.db.selectFrom('request_images').select('byte_size').where('public_id', '=', photoId).executeTakeFirstOrThrow();
    await session.close();
    const meta = await sharp(bytes).metadata();
    return { bytes, byteSize: row.byte_size, exif: Boolean(meta.exif), xmp: Boolean(meta.xmp), orientation: meta.orientation ?? 1, width: meta.width, height: meta.height };
  };

  const dataDirs: string[] = [];
  /** A data directory of its own for each test (they run in a random order): three images stored before uploads were cleaned. */
  const seedOldUploads = async () => {
    dataDir = tempDataDir();
    dataDirs.push(dataDir);
    env = { DATA_DIR: dataDir, DATABASE_URL: undefined, DEMO_SEED: 'false', JWT_SECRET: 'x'.repeat(40) };
    // stored before uploads were cleaned: a phone photo with GPS, owner and orientation 6 (shown 300×400)
    const exif = { IFD0: { Artist: 'Asha Rao', Make: 'PhoneCo' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 31/1 12/1', GPSLongitudeRef: 'E', GPSLongitude: '13/1 24/1 0/1' } };
    photo = new Uint8Array(await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3a7' } }).jpeg().withExif(exif).withMetadata({ orientation: 6 }).withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"/>').toBuffer());
    const session = testSession(env);
    const ctx = await session.context();
    const user = await ctx.db.insertInto('users').values({ email: 'old.uploads@example.com', name: null, shop_customer_id: null, updated_at: new Date() }).returning('id').executeTakeFirstOrThrow();
    photoId = (await saveUpload(ctx, user.id, photo, 'image/jpeg')).publicId;
    await saveUpload(ctx, user.id, png(3, 2), 'image/png'); // has none
    brokenId = (await saveUpload(ctx, user.id, padTo(JPEG.subarray(0, 20), 3000), 'image/jpeg')).publicId;
    await session.close();
  };
  afterAll(async () => {
    for (const dir of dataDirs) {
      await releaseEmbedded({ DATA_DIR: dir });
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('--dry-run counts what carries metadata and changes nothing; an unreadable image fails the run (exit 1)', async () => {
    await seedOldUploads();
    const run = await runCli(['images', 'strip-metadata', '--dry-run', '--json'], env);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({ dryRun: true, total: 3, cleaned: 1, clean: 1, failed: [{ publicId: brokenId, error: 'the image could not be decoded' }] });
    const stored = await storedPhoto();
    expect(Buffer.compare(Buffer.from(stored.bytes), Buffer.from(photo))).toBe(0);
    expect(stored).toMatchObject({ exif: true, xmp: true, orientation: 6 });
  });

  test('cleans the original in place (upright, no EXIF or XMP, row size updated); a second run finds nothing to do', async () => {
    await seedOldUploads();
    const run = await runCli(['images', 'strip-metadata', '--json'], env);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ dryRun: false, total: 3, cleaned: 1, clean: 1 });
    const stored = await storedPhoto();
    expect(stored).toMatchObject({ exif: false, xmp: false, orientation: 1, width: 300, height: 400, byteSize: stored.bytes.byteLength });
    expect(Buffer.from(stored.bytes).includes('Asha Rao')).toBe(false);

    const session = testSession(env);
    const ctx = await session.context();
    await ctx.db.deleteFrom('request_images').where('public_id', '=', brokenId).execute();
    await session.close();
    const again = await runCli(['images', 'strip-metadata'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('0 cleaned, 2 already without metadata, 0 failed, of 2 images.\n');
  });

  test('--help shows an example', async () => {
    const help = await runCli(['images', 'strip-metadata', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('$ swappoints images strip-metadata --dry-run');
  });
});
