import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3StoreSettings } from '#api/integrations/images/index.ts';

/**
 * A real S3-protocol server (s3rver) on a free local port with one empty bucket, for tests of the
 * S3 image store: the store talks to it with Bun's S3 client exactly as it would to AWS or MinIO.
 * It runs under Node.js (see s3rver-main.cjs for why).
 */
export interface FakeS3 {
  endpoint: string;
  bucket: string;
  settings(prefix?: string): S3StoreSettings;
  /** the S3 settings as environment variables, for servers and CLI commands started as processes */
  env(prefix?: string): Record<string, string>;
  close(): Promise<void>;
}

/** s3rver's fixed credentials (it checks signatures against them). */
const ACCESS_KEY_ID = 'S3RVER';
const SECRET_ACCESS_KEY = 'S3RVER';

export async function startFakeS3(bucket = 'swappoints-test'): Promise<FakeS3> {
  const directory = mkdtempSync(join(tmpdir(), 'swappoints-s3-'));
  // s3rver encrypts list continuation tokens with DES, which OpenSSL 3 keeps in its legacy provider.
  const child = Bun.spawn(['node', '--openssl-legacy-provider', join(import.meta.dir, 's3rver-main.cjs'), directory, bucket], {
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: process.env.S3RVER_LOG === '1' ? 'inherit' : 'pipe',
  });
  const reader = child.stdout.getReader();
  let text = '';
  while (!text.includes('\n')) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`s3rver did not start: ${await new Response(child.stderr).text()}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const { port } = JSON.parse(text) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  const settings = (prefix = ''): S3StoreSettings => ({
    bucket,
    endpoint,
    region: 'us-east-1',
    accessKeyId: ACCESS_KEY_ID,
    secretAccessKey: SECRET_ACCESS_KEY,
    prefix,
  });
  return {
    endpoint,
    bucket,
    settings,
    env: (prefix = '') => ({
      IMAGE_STORE: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
      ...(prefix ? { S3_PREFIX: prefix } : {}),
    }),
    close: async () => {
      await child.stdin.end();
      await child.exited;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
