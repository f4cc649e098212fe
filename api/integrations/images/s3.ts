import { contentTypeOfKey, isStoreKey, type ImageStore, type StoredKey, type StoredObject } from './types.ts';

export interface S3StoreSettings {
  bucket: string;
  /** undefined: AWS S3 in `region` */
  endpoint: string | undefined;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** '' or a path ending in '/', put before every key */
  prefix: string;
}

/** How long the start-up probe and the health check wait for the bucket. */
const CHECK_TIMEOUT_MS = 5_000;

function describe(error: unknown): string {
  const e = error as { code?: string; message?: string };
  if (e?.code && e.message && e.message !== 'an unexpected error has occurred') return `${e.code} (${e.message})`;
  return e?.code ?? e?.message ?? String(error);
}

/**
 * Images in an S3-compatible bucket through Bun's built-in S3 client. Object names are
 * `<S3_PREFIX><store key>`; the object's Content-Type is the image type, so the bucket can also be
 * served directly by a CDN later.
 */
export function createS3ImageStore(settings: S3StoreSettings): ImageStore {
  const client = new Bun.S3Client({
    bucket: settings.bucket,
    endpoint: settings.endpoint,
    region: settings.region,
    accessKeyId: settings.accessKeyId,
    secretAccessKey: settings.secretAccessKey,
  });
  const where = `bucket "${settings.bucket}"${settings.endpoint ? ` at ${settings.endpoint}` : ` in ${settings.region}`}`;
  const nameOf = (key: string) => `${settings.prefix}${key}`;

  return {
    kind: 's3',
    async put(key, bytes, contentType) {
      if (!isStoreKey(key)) throw new Error('image store: malformed key');
      await client.write(nameOf(key), bytes, { type: contentType });
    },
    async get(key): Promise<StoredObject | null> {
      if (!isStoreKey(key)) return null;
      // One signed GET gives status, length and a streaming body in a single round trip.
      const response = await fetch(client.presign(nameOf(key), { method: 'GET', expiresIn: 60 }));
      if (response.status === 404) {
        await response.body?.cancel().catch(() => {});
        return null;
      }
      if (!response.ok || !response.body) {
        await response.body?.cancel().catch(() => {});
        throw new Error(`object store: GET ${key} in ${where} answered ${response.status}`);
      }
      const length = Number(response.headers.get('content-length'));
      return { body: response.body as ReadableStream<Uint8Array>, contentType: contentTypeOfKey(key)!, byteSize: Number.isFinite(length) ? length : -1 };
    },
    async exists(key) {
      return isStoreKey(key) && (await client.exists(nameOf(key)));
    },
    async delete(keys) {
      // One at a time: the keys are an image and its few variants, or a background cleanup batch.
      for (const key of keys.filter(isStoreKey)) await client.delete(nameOf(key));
    },
    async *list(prefix = ''): AsyncIterable<StoredKey> {
      let continuationToken: string | undefined;
      do {
        const page = await client.list({ prefix: nameOf(prefix), continuationToken });
        for (const item of page.contents ?? []) {
          const key = item.key.slice(settings.prefix.length);
          if (isStoreKey(key)) yield { key, byteSize: item.size ?? 0 };
        }
        continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
      } while (continuationToken);
    },
    async check() {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS / 1000} s`)), CHECK_TIMEOUT_MS);
      });
      try {
        await Promise.race([client.list({ prefix: settings.prefix, maxKeys: 1 }), timeout]);
      } catch (error) {
        throw new Error(`The object store ${where} cannot be reached: ${describe(error)}.`);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
