import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { rmSync } from 'node:fs';
import { startHost } from '#api/host.ts';
import { createLogger } from '#api/lib/log.ts';
import { loadSettings } from '#api/settings.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { tempDataDir } from '#tests/helpers/cli.ts';
import { databaseKinds, seedMigratedDataDir } from '#tests/helpers/db.ts';
import { startFakeS3, type FakeS3 } from '#tests/helpers/s3.ts';

setDefaultTimeout(60_000);

describe.each(databaseKinds())('GET /api/health (%s)', (kind) => {
  // each test gets its own app (and bucket): one stops its database or its bucket
  const withApp = async (env: Record<string, string>, body: (app: TestApp) => Promise<void>) => {
    const app = await createTestApp(kind, env);
    try {
      await body(app);
    } finally {
      await app.close();
    }
  };

  test('200 with a reachable bucket, 503 naming the object store once it stops answering', async () => {
    const s3: FakeS3 = await startFakeS3();
    try {
      await withApp(s3.env(), async (onS3) => {
        expect((await onS3.request('GET', '/api/health')).body).toEqual({ status: 'ok', database: 'ok', objectStore: 'ok', imageStore: 's3' });
        await s3.close();
        const res = await onS3.request('GET', '/api/health');
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ status: 'unavailable', database: 'ok', objectStore: 'unreachable', imageStore: 's3' });
      });
    } finally {
      await s3.close();
    }
  });

  // one app for both: a second database costs about a CPU-second
  test('200 with the local store and a reachable database; 503 naming the database once it is gone', async () => {
    await withApp({}, async (local) => {
      const ok = await local.request('GET', '/api/health');
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ status: 'ok', database: 'ok', objectStore: 'ok', imageStore: 'local' });
      expect(ok.headers.get('cache-control')).toBe('no-store');
      await local.ctx.db.destroy();
      const res = await local.request('GET', '/api/health');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'unavailable', database: 'unreachable', objectStore: 'ok', imageStore: 'local' });
    });
  });
});

describe('the start-up probe', () => {
  let s3: FakeS3;
  let dataDir: string;
  beforeAll(async () => {
    s3 = await startFakeS3();
    dataDir = tempDataDir();
    await seedMigratedDataDir(dataDir); // the subject is the bucket, not a first start (initdb takes seconds)
  });
  afterAll(async () => {
    await s3.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const settingsWith = (env: Record<string, string>) =>
    loadSettings({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40), DEMO_SEED: 'false', ...s3.env(), ...env });

  test('a server refuses to start when its bucket cannot be reached, and says which and why', async () => {
    const start = startHost(settingsWith({ S3_BUCKET: 'missing-bucket' }), { background: false, log: createLogger('silent') });
    await expect(start).rejects.toThrow(`The object store bucket "missing-bucket" at ${s3.endpoint} cannot be reached: NoSuchBucket`);
  });

  test('it starts when the bucket answers', async () => {
    const host = await startHost(settingsWith({}), { background: false, log: createLogger('silent') });
    expect(host.ctx.images.kind).toBe('s3');
    await host.close();
  });
});

describe('S3 settings are checked at start, each message naming the setting', () => {
  const base = { DATA_DIR: '/tmp/unused', JWT_SECRET: 'x'.repeat(40), IMAGE_STORE: 's3', S3_BUCKET: 'shop-images', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' };
  test.each([
    [{ IMAGE_STORE: 'gcs' }, 'Invalid setting IMAGE_STORE: expected one of local, s3, got "gcs".'],
    [{ S3_BUCKET: '' }, 'Invalid setting S3_BUCKET: required when IMAGE_STORE is s3'],
    [{ S3_BUCKET: 'Bad_Bucket' }, 'Invalid setting S3_BUCKET: expected a bucket name'],
    [{ S3_ACCESS_KEY_ID: '' }, 'Invalid setting S3_ACCESS_KEY_ID: required when IMAGE_STORE is s3'],
    [{ S3_SECRET_ACCESS_KEY: '' }, 'Invalid setting S3_SECRET_ACCESS_KEY: required when IMAGE_STORE is s3'],
    [{ S3_ENDPOINT: 'ftp://x' }, 'Invalid setting S3_ENDPOINT: expected a http:// or https:// URL'],
    [{ S3_REGION: 'US East' }, 'Invalid setting S3_REGION'],
    [{ S3_PREFIX: '../up' }, 'Invalid setting S3_PREFIX'],
    [{ S3_PREFIX: '/abs' }, 'Invalid setting S3_PREFIX'],
  ])('%o', (env, message) => {
    expect(() => loadSettings({ ...base, ...env })).toThrow(message);
  });

  test('defaults: local store; with s3, region us-east-1, AWS endpoint, a prefix ends in a slash', () => {
    const local = loadSettings({ DATA_DIR: '/tmp/unused', JWT_SECRET: 'x'.repeat(40) });
    expect(local.imageStore).toBe('local');
    expect(local.s3).toBeUndefined();
    const s3 = loadSettings({ ...base, S3_PREFIX: 'shop/media' }).s3!;
    expect(s3).toEqual({ bucket: 'shop-images', endpoint: undefined, region: 'us-east-1', accessKeyId: 'id', secretAccessKey: 'secret', prefix: 'shop/media/' });
  });
});
