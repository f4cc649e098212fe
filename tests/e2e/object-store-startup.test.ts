import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startFakeS3, type FakeS3 } from '#tests/helpers/s3.ts';
import { startServer } from '#tests/helpers/server.ts';

setDefaultTimeout(120_000);

/** `swappoints serve` with IMAGE_STORE=s3 probes the bucket before it takes any request. */
describe('swappoints serve with IMAGE_STORE=s3', () => {
  let s3: FakeS3;
  beforeAll(async () => {
    s3 = await startFakeS3();
  });
  afterAll(() => s3.close());

  test('stops at start, naming the bucket, its address and the reason, when the bucket cannot be reached', async () => {
    const start = startServer({ ...s3.env(), S3_BUCKET: 'no-such-bucket', DEMO_SEED: 'false' });
    await expect(start).rejects.toThrow(`swappoints: The object store bucket "no-such-bucket" at ${s3.endpoint} cannot be reached: NoSuchBucket`);
  });

  test('stops with a message naming the setting when one is missing', async () => {
    await expect(startServer({ ...s3.env(), S3_SECRET_ACCESS_KEY: undefined })).rejects.toThrow(
      'swappoints: Invalid setting S3_SECRET_ACCESS_KEY: required when IMAGE_STORE is s3 (the secret access key).',
    );
  });

  test('starts and reports itself healthy when the bucket answers', async () => {
    const server = await startServer({ ...s3.env(), DEMO_SEED: 'false' });
    try {
      expect(await server.api('GET', '/api/health')).toEqual({ status: 200, body: { status: 'ok', database: 'ok', objectStore: 'ok', imageStore: 's3' } });
    } finally {
      await server.stop();
    }
  });
});
