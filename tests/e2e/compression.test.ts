import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ROOT } from '#tests/helpers/cli.ts';
import { startServer, type RunningServer } from '#tests/helpers/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
}, 120_000);
afterAll(() => server?.stop(), 30_000);

/** The bytes as sent on the wire: Bun's fetch would otherwise decode them for us. */
async function raw(path: string, acceptEncoding: string | null, init: RequestInit = {}) {
  const response = await fetch(`${server.url}${path}`, { ...init, headers: { ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}), ...init.headers }, decompress: false } as RequestInit);
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}
const decode = (encoding: string | null, bytes: Buffer) => (encoding === 'br' ? brotliDecompressSync(bytes) : encoding === 'gzip' ? gunzipSync(bytes) : bytes);

describe('responses are compressed as the client accepts', () => {
  test('built scripts and CSS come from their brotli and gzip copies, cached as immutable, and decode to the built file', async () => {
    const html = (await raw('/email-signin', null)).bytes.toString();
    const assets = [...new Set(html.match(/\/assets\/[\w.-]+\.(js|css)/g) ?? [])];
    expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    for (const asset of assets) {
      const original = readFileSync(join(ROOT, process.env.SWAPPOINTS_DIST_DIR ?? 'dist', 'public', asset));
      for (const [accept, expected] of [['gzip, deflate, br, zstd', 'br'], ['gzip', 'gzip'], [null, null]] as const) {
        const { response, bytes } = await raw(asset, accept);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-encoding')).toBe(expected);
        expect(response.headers.get('vary')).toContain('Accept-Encoding');
        expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        if (original.length > 2048 && expected) expect(bytes.length).toBeLessThan(original.length * 0.6);
        expect(Buffer.compare(decode(expected, bytes), original)).toBe(0);
      }
    }
  });

  test('pages and RSC payloads stream compressed and decode to what an uncompressed request gets', async () => {
    const plain = (await raw('/email-signin', null)).bytes.toString();
    for (const [accept, expected] of [['br', 'br'], ['gzip', 'gzip']] as const) {
      const { response, bytes } = await raw('/email-signin', accept);
      expect(response.headers.get('content-encoding')).toBe(expected);
      expect(response.headers.get('vary')).toContain('Accept-Encoding');
      expect(response.headers.get('content-type')).toContain('text/html');
      const text = decode(expected, bytes).toString();
      expect(text.startsWith('<!DOCTYPE html>')).toBe(true);
      // the same page; only per-render ids (React's) may differ between two renders
      expect(text.length).toBeGreaterThan(plain.length * 0.95);
      expect(text.length).toBeLessThan(plain.length * 1.05);
      expect(bytes.length).toBeLessThan(text.length / 2);
    }
    const rscPath = '/RSC/R/email-signin.txt';
    const rsc = await raw(rscPath, 'br');
    expect(rsc.response.status).toBe(200);
    expect(rsc.response.headers.get('content-encoding')).toBe('br');
    expect(rsc.response.headers.get('content-type')).toBe('text/x-component');
    expect(decode('br', rsc.bytes).toString()).toContain('email');
  });

  test('JSON from the API is compressed and decodes to the same document; images are sent as stored', async () => {
    const plain = await (await fetch(`${server.url}/api/docs/json`)).json();
    const { response, bytes } = await raw('/api/docs/json', 'br, gzip');
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(JSON.parse(decode('br', bytes).toString())).toEqual(plain);

    const token = await server.apiSignIn('asha.rao@example.com');
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYPgPAAEDAQAIicLsAAAAAElFTkSuQmCC', 'base64');
    const form = new FormData();
    form.append('file', new File([png], 'photo.png', { type: 'image/png' }));
    const upload = (await (await fetch(`${server.url}/image/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })).json()) as { secure_url: string };
    const path = new URL(upload.secure_url, server.url).pathname;
    const image = await raw(path, 'br, gzip', { headers: { authorization: `Bearer ${token}` } });
    expect(image.response.status).toBe(200);
    expect(image.response.headers.get('content-encoding')).toBeNull();
    // uploads are stored cleaned (decoded and written again), so "as stored" is the file in the media store
    const name = path.split('/').pop()!;
    expect(Buffer.compare(image.bytes, readFileSync(join(server.dataDir, 'media', name.slice(0, 2), name)))).toBe(0);
  });
});
