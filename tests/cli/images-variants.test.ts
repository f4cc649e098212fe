import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { rmSync } from 'node:fs';
import sharp from 'sharp';
import { variantKey } from '#api/integrations/images/index.ts';
import { saveUpload } from '#api/modules/images/service.ts';
import { releaseEmbedded, runCli, tempDataDir, testSession } from '#tests/helpers/cli.ts';
import { seedMigratedDataDir } from '#tests/helpers/db.ts';
import { JPEG, padTo } from '#tests/helpers/images.ts';

setDefaultTimeout(60_000);

describe('swappoints images variants', () => {
  let dataDir: string;
  let env: Record<string, string | undefined>;
  let photoId: string;
  let brokenId: string;
  const thumbs = (id: string) => [variantKey(id, 'w320', 'image/webp'), variantKey(id, 'w1280', 'image/webp')];

  beforeAll(async () => {
    dataDir = tempDataDir();
    await seedMigratedDataDir(dataDir);
    env = { DATA_DIR: dataDir, DATABASE_URL: undefined, DEMO_SEED: 'false', JWT_SECRET: 'x'.repeat(40) };
    // uploads from before thumbnails: stored, then their variants taken away
    const session = testSession(env);
    const ctx = await session.context();
    const user = await ctx.db.insertInto('users').values({ email: 'old.uploads@example.com', name: null, shop_customer_id: null, updated_at: new Date() }).returning('id').executeTakeFirstOrThrow();
    const photo = new Uint8Array(await sharp({ create: { width: 900, height: 600, channels: 3, background: '#3a7' } }).jpeg().toBuffer());
    photoId = (await saveUpload(ctx, user.id, photo, 'image/jpeg')).publicId;
    brokenId = (await saveUpload(ctx, user.id, padTo(JPEG.subarray(0, 20), 3000), 'image/jpeg')).publicId;
    await ctx.images.delete(thumbs(photoId));
    await session.close();
  });
  afterAll(async () => {
    await releaseEmbedded(env);
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('makes the missing thumbnails, reports what it could not make (exit 1), and a second run finds them made', async () => {
    const first = await runCli(['images', 'variants', '--json'], env);
    expect(first.code).toBe(1);
    expect(JSON.parse(first.stdout)).toEqual({ total: 2, made: 1, present: 0, failed: [{ publicId: brokenId, error: 'the image could not be decoded' }] });
    expect(first.stderr).toContain('1 image got no thumbnails');

    const session = testSession(env);
    const ctx = await session.context();
    expect(await Promise.all(thumbs(photoId).map((k) => ctx.images.exists(k)))).toEqual([true, true]);
    await ctx.db.deleteFrom('request_images').where('public_id', '=', brokenId).execute();
    await session.close();

    const second = await runCli(['images', 'variants'], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('0 made, 1 already had them, 0 failed, of 1 images.\n');
  });

  test('--help shows an example', async () => {
    const help = await runCli(['images', 'variants', '--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('$ swappoints images variants');
  });
});
