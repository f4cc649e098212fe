import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createLocalImageStore, createS3ImageStore, imageKey, newPublicId, variantKey, type ImageStore } from '#api/integrations/images/index.ts';
import { runCli as runCliInProcess } from '#cli/program.ts';
import { runCli, tempDataDir, testSession } from '#tests/helpers/cli.ts';
import { startFakeS3, type FakeS3 } from '#tests/helpers/s3.ts';

setDefaultTimeout(60_000);

/** A data directory with 24 uploads and 6 variants on local disk, and an empty prefix of the bucket to copy them to. */
interface Fixture {
  dataDir: string;
  env: Record<string, string | undefined>;
  local: ImageStore;
  bucket: ImageStore;
  keys: string[];
}

describe('swappoints images migrate --to s3', () => {
  let s3: FakeS3;
  const dataDirs: string[] = [];
  const bytesOf = async (store: ImageStore, key: string) => new Uint8Array(await new Response((await store.get(key))!.body).arrayBuffer());
  const migrate = async (f: Fixture, ...extra: string[]) => runCli(['images', 'migrate', '--to', 's3', ...extra], f.env);

  // each test gets its own uploads and its own prefix in the bucket, so none depends on another's copy
  async function fixture(): Promise<Fixture> {
    const dataDir = tempDataDir();
    dataDirs.push(dataDir);
    // no database in it: copying the images reads only the media folder and the bucket
    const prefix = `shop-${crypto.randomUUID().slice(0, 8)}/`;
    // Still on local disk: the migration runs before IMAGE_STORE is switched.
    const env = { DATA_DIR: dataDir, DATABASE_URL: undefined, ...s3.env(prefix), IMAGE_STORE: 'local' };
    const local = createLocalImageStore(join(dataDir, 'media'));
    const bucket = createS3ImageStore(s3.settings(prefix));
    const keys: string[] = [];
    for (let i = 0; i < 24; i++) {
      const id = newPublicId();
      const key = imageKey(id, i % 2 ? 'image/png' : 'image/jpeg');
      await local.put(key, crypto.getRandomValues(new Uint8Array(1000 + i * 37)), 'image/jpeg');
      keys.push(key);
      if (i % 4 === 0) {
        const thumb = variantKey(id, 'w320', 'image/webp');
        await local.put(thumb, crypto.getRandomValues(new Uint8Array(200 + i)), 'image/webp');
        keys.push(thumb);
      }
    }
    return { dataDir, env, local, bucket, keys };
  }

  /** Copies everything once and checks it all arrived: the state the re-run tests start from. */
  async function migrated(): Promise<Fixture> {
    const f = await fixture();
    const first = await migrate(f, '--json');
    expect([first.code, first.stderr]).toEqual([0, '']);
    expect(JSON.parse(first.stdout)).toMatchObject({ total: 30, copied: 30, skipped: 0, failed: [] });
    return f;
  }

  beforeAll(async () => {
    s3 = await startFakeS3();
  });
  afterAll(async () => {
    await s3.close();
    for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
  });

  test('copies every upload and variant byte for byte, with a JSON summary', async () => {
    const f = await fixture();
    const result = await migrate(f, '--json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ total: 30, copied: 30, skipped: 0, failed: [], to: `s3://${s3.bucket}/${f.env.S3_PREFIX}` });
    expect(summary.bytesCopied).toBeGreaterThan(24_000);
    for (const key of f.keys) expect(await bytesOf(f.bucket, key)).toEqual(await bytesOf(f.local, key));
  });

  test('after an interruption (objects missing, one of the wrong size) a re-run copies just those', async () => {
    const f = await migrated();
    await f.bucket.delete(f.keys.slice(0, 5));
    await f.bucket.put(f.keys[7]!, new Uint8Array([1, 2, 3]), 'image/png');
    const summary = JSON.parse((await migrate(f, '--json')).stdout);
    expect(summary).toMatchObject({ total: 30, copied: 6, skipped: 24, failed: [] });
    for (const key of f.keys) expect(await bytesOf(f.bucket, key)).toEqual(await bytesOf(f.local, key));
  });

  test('a run after a full copy copies nothing, and tells so in words without --json', async () => {
    const f = await migrated();
    const result = await migrate(f);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`0 copied (0.0 MB), 30 already in the bucket, 0 failed, of 30 in ${join(f.dataDir, 'media')}.\n`);
  });

  test('on a terminal it shows progress to the end', async () => {
    const f = await fixture();
    let stderr = '';
    const io = {
      stdout: { write: () => {}, isTTY: true, columns: 100 },
      stderr: { write: (text: string) => void (stderr += text), isTTY: true, columns: 100 },
      cwd: f.dataDir,
    };
    const code = await runCliInProcess(['images', 'migrate', '--to', 's3'], io, testSession({ ...f.env, JWT_SECRET: 'x'.repeat(40) }));
    expect(code).toBe(0);
    expect(stderr).toContain('\rImages copied or checked: 30/30 100%');
    expect(stderr.endsWith('\n')).toBe(true);
  });

  test('bad usage exits 2; an unreachable bucket exits 1 naming it', async () => {
    const { env, dataDir } = await fixture();
    const wrongTo = await runCli(['images', 'migrate', '--to', 'gcs'], env);
    expect(wrongTo.code).toBe(2);
    expect(wrongTo.stderr).toBe('swappoints: --to must be s3, got "gcs"\n');
    const noBucket = await runCli(['images', 'migrate', '--to', 's3'], { DATA_DIR: dataDir, DATABASE_URL: undefined, IMAGE_STORE: 'local', S3_BUCKET: undefined });
    expect(noBucket.code).toBe(2);
    expect(noBucket.stderr).toContain('no bucket to copy into: set S3_BUCKET');
    const missing = await runCli(['images', 'migrate', '--to', 's3'], { ...env, S3_BUCKET: 'gone-bucket' });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('The object store bucket "gone-bucket"');
    expect(missing.stderr).toContain('NoSuchBucket');
  });

  test('--help shows an example', async () => {
    const help = await runCli(['images', 'migrate', '--help'], (await fixture()).env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('$ S3_BUCKET=shop-images');
  });
});
