import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createLocalImageStore,
  createS3ImageStore,
  imageKey,
  imageKeyPrefix,
  newPublicId,
  variantKey,
  type ImageStore,
} from '#api/integrations/images/index.ts';
import { startFakeS3, type FakeS3 } from '#tests/helpers/s3.ts';

setDefaultTimeout(60_000);

/** One contract, two stores: local disk and an S3 bucket on a real S3-protocol server (s3rver). */
let s3: FakeS3;
let mediaDir: string;
beforeAll(async () => {
  s3 = await startFakeS3();
  mediaDir = mkdtempSync(join(tmpdir(), 'swappoints-media-'));
});
afterAll(async () => {
  await s3.close();
  rmSync(mediaDir, { recursive: true, force: true });
});

const bytesOf = async (body: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(body).arrayBuffer());
const keysOf = async (store: ImageStore, prefix?: string) => {
  const keys: string[] = [];
  for await (const stored of store.list(prefix)) keys.push(stored.key);
  return keys.sort();
};

const stores: [string, () => ImageStore][] = [
  ['local', () => createLocalImageStore(mediaDir)],
  ['s3', () => createS3ImageStore(s3.settings())],
  ['s3 with S3_PREFIX', () => createS3ImageStore(s3.settings('shop-a/media/'))],
];

describe.each(stores)('the %s image store', (_name, make) => {
  let store: ImageStore;
  beforeAll(() => {
    store = make();
  });

  test('put, get as a stream, exists, list by image, delete with variants', async () => {
    const id = newPublicId();
    const original = imageKey(id, 'image/jpeg');
    const thumb = variantKey(id, 'w320', 'image/webp');
    const other = imageKey(newPublicId(), 'image/png');
    const bytes = crypto.getRandomValues(new Uint8Array(70_000));
    await store.put(original, bytes, 'image/jpeg');
    await store.put(thumb, new Uint8Array([1, 2, 3]), 'image/webp');
    await store.put(other, new Uint8Array([9]), 'image/png');

    const got = (await store.get(original))!;
    expect(got.contentType).toBe('image/jpeg');
    expect(got.byteSize).toBe(70_000);
    expect(await bytesOf(got.body)).toEqual(bytes);
    expect((await store.get(thumb))!.contentType).toBe('image/webp');
    expect(await store.exists(original)).toBe(true);
    expect(await store.exists(imageKey(id, 'image/png'))).toBe(false);
    expect(await store.get(imageKey(id, 'image/png'))).toBeNull();

    expect(await keysOf(store, imageKeyPrefix(id))).toEqual([original, thumb].sort());
    const all = await keysOf(store);
    for (const key of [original, thumb, other]) expect(all).toContain(key);

    await store.delete([original, thumb, imageKey(newPublicId(), 'image/gif')]);
    expect(await store.exists(original)).toBe(false);
    expect(await store.get(thumb)).toBeNull();
    expect(await keysOf(store, imageKeyPrefix(id))).toEqual([]);
    expect(await store.exists(other)).toBe(true);
  });

  test('a put replaces the object whole', async () => {
    const key = imageKey(newPublicId(), 'image/png');
    await store.put(key, new Uint8Array(1000).fill(1), 'image/png');
    await store.put(key, new Uint8Array([7, 7]), 'image/png');
    expect(await bytesOf((await store.get(key))!.body)).toEqual(new Uint8Array([7, 7]));
  });

  test('malformed keys are refused on put and absent elsewhere', async () => {
    for (const key of ['../x.png', `zz/${newPublicId()}.png`, `${newPublicId()}.png`, 'a/b']) {
      await expect(store.put(key, new Uint8Array([1]), 'image/png')).rejects.toThrow('malformed');
      expect(await store.get(key)).toBeNull();
      expect(await store.exists(key)).toBe(false);
    }
  });

  test('the probe passes when the store is reachable', async () => {
    await store.check();
  });
});

describe('the S3 store', () => {
  test('keeps S3_PREFIX stores apart: each lists only its own keys', async () => {
    const a = createS3ImageStore(s3.settings('tenant-a/'));
    const b = createS3ImageStore(s3.settings('tenant-b/'));
    const key = imageKey(newPublicId(), 'image/gif');
    await a.put(key, new Uint8Array([1]), 'image/gif');
    expect(await a.exists(key)).toBe(true);
    expect(await b.exists(key)).toBe(false);
    expect(await keysOf(b)).not.toContain(key);
  });

  test('lists past one page (1,000 keys per S3 list call)', async () => {
    const store = createS3ImageStore(s3.settings('paged/'));
    const keys = Array.from({ length: 1010 }, () => imageKey(newPublicId(), 'image/gif'));
    for (let i = 0; i < keys.length; i += 50) await Promise.all(keys.slice(i, i + 50).map((k) => store.put(k, new Uint8Array([1]), 'image/gif')));
    expect(await keysOf(store)).toEqual(keys.sort());
  }, 120_000);

  test('the probe names the bucket and the reason when the bucket does not exist', async () => {
    const store = createS3ImageStore({ ...s3.settings(), bucket: 'no-such-bucket' });
    await expect(store.check()).rejects.toThrow(`The object store bucket "no-such-bucket" at ${s3.endpoint} cannot be reached: NoSuchBucket`);
  });

  test('the probe says so when nothing listens at the endpoint', async () => {
    const closed = Bun.serve({ port: 0, fetch: () => new Response() });
    const endpoint = `http://127.0.0.1:${closed.port}`;
    await closed.stop(true);
    const store = createS3ImageStore({ ...s3.settings(), endpoint });
    await expect(store.check()).rejects.toThrow(`The object store bucket "${s3.bucket}" at ${endpoint} cannot be reached: ConnectionRefused`);
  });
});
