import { describe, expect, test } from 'bun:test';
import { brotliDecompressSync, createBrotliDecompress, createGunzip, gunzipSync } from 'node:zlib';
import { compressResponse, negotiateEncoding } from '#api/http/compression.ts';

const page = '<!doctype html><html><head><title>x</title></head><body>' + 'A row of the table. '.repeat(400) + '</body></html>';
const request = (acceptEncoding?: string, method = 'GET') => new Request('http://x/dashboard', { method, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });
const htmlResponse = (body: BodyInit = page) => new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8' } });
const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());

describe('negotiating an encoding', () => {
  test('brotli before gzip, q=0 refuses, * stands for the rest, nothing means identity', () => {
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiateEncoding('gzip')).toBe('gzip');
    expect(negotiateEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('*, br;q=0')).toBe('gzip');
    expect(negotiateEncoding('identity')).toBeNull();
    expect(negotiateEncoding(null)).toBeNull();
  });
});

describe('compressing responses as they stream', () => {
  test('HTML is brotli- or gzip-encoded, with Vary, and decodes to the same bytes', async () => {
    const br = await compressResponse(request('gzip, br'), '/dashboard', htmlResponse(), undefined);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    const brBytes = await bytesOf(br);
    expect(brBytes.length).toBeLessThan(page.length / 10);
    expect(brotliDecompressSync(brBytes).toString()).toBe(page);

    const gz = await compressResponse(request('gzip'), '/dashboard', htmlResponse(), undefined);
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(await bytesOf(gz)).toString()).toBe(page);
  });

  test('the first chunk reaches the client, decodable, before the render has finished', async () => {
    for (const [encoding, decoder] of [['br', createBrotliDecompress], ['gzip', createGunzip]] as const) {
      let finish!: () => void;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      const source = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode('<!doctype html><html><head><title>shell</title></head>'));
          await finished; // the rest of the page is still rendering
          controller.enqueue(new TextEncoder().encode('<body>late</body></html>'));
          controller.close();
        },
      });
      const response = await compressResponse(request(encoding), '/dashboard', htmlResponse(source), undefined);
      expect(response.headers.get('content-encoding')).toBe(encoding);
      // what arrives while the render is held decodes to the shell (gzip's header may come alone first)
      const reader = response.body!.getReader();
      const inflate = decoder();
      let decoded = '';
      inflate.on('data', (chunk: Buffer) => (decoded += chunk.toString()));
      while (!decoded.includes('</head>')) {
        const chunk = await reader.read();
        expect(chunk.done).toBe(false);
        await new Promise<void>((resolve) => inflate.write(chunk.value, () => resolve()));
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(decoded).toContain('<title>shell</title>');
      expect(decoded).not.toContain('late');
      finish();
      await reader.cancel();
    }
  });

  test('JSON and RSC payloads are compressed; images, small known bodies, HEAD and no-transform are not', async () => {
    const json = JSON.stringify({ rows: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `row ${i}` })) });
    const api = await compressResponse(request('br'), '/api/x', new Response(json, { headers: { 'content-type': 'application/json' } }), undefined);
    expect(api.headers.get('content-encoding')).toBe('br');
    expect(JSON.parse(brotliDecompressSync(await bytesOf(api)).toString())).toEqual(JSON.parse(json));
    // a browser accepts both: an API answer's JSON, compressed in one call, takes gzip (far cheaper per
    // response) up to 64 KB, brotli beyond; a page's stream keeps brotli
    const browser = 'gzip, deflate, br, zstd';
    const json2 = await compressResponse(request(browser), '/api/x', new Response(json, { headers: { 'content-type': 'application/json' } }), undefined);
    expect(json2.headers.get('content-encoding')).toBe('gzip');
    expect(json2.headers.get('vary')).toBe('Accept-Encoding');
    expect(JSON.parse(gunzipSync(await bytesOf(json2)).toString())).toEqual(JSON.parse(json));
    const big = JSON.stringify({ rows: Array.from({ length: 4_000 }, (_, i) => ({ id: i, name: `row ${i}` })) });
    expect(big.length).toBeGreaterThan(64 * 1024);
    const bigAnswer = await compressResponse(request(browser), '/api/docs/json', new Response(big, { headers: { 'content-type': 'application/json' } }), undefined);
    expect(bigAnswer.headers.get('content-encoding')).toBe('br');
    expect(JSON.parse(brotliDecompressSync(await bytesOf(bigAnswer)).toString())).toEqual(JSON.parse(big));
    expect((await compressResponse(request('gzip'), '/api/docs/json', new Response(big, { headers: { 'content-type': 'application/json' } }), undefined)).headers.get('content-encoding')).toBe('gzip');
    expect((await compressResponse(request(browser), '/dashboard', htmlResponse(), undefined)).headers.get('content-encoding')).toBe('br');

    const rsc = await compressResponse(request('gzip'), '/RSC/R/dashboard.txt', new Response(page, { headers: { 'content-type': 'text/x-component' } }), undefined);
    expect(rsc.headers.get('content-encoding')).toBe('gzip');

    const jpeg = new Uint8Array(4096).fill(7);
    const image = await compressResponse(request('br'), '/image/abc', new Response(jpeg, { headers: { 'content-type': 'image/jpeg' } }), undefined);
    expect(image.headers.get('content-encoding')).toBeNull();
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(jpeg);

    const small = await compressResponse(request('br'), '/api/y', new Response('{"ok":true}', { headers: { 'content-type': 'application/json', 'content-length': '11' } }), undefined);
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(small.headers.get('vary')).toBe('Accept-Encoding');
    expect(await small.json()).toEqual({ ok: true });
    // an API's JSON comes without a Content-Length: a small one is still sent as it is, a large one whole with its length
    const unsized = await compressResponse(request('br'), '/api/z', Response.json({ ok: true }), undefined);
    expect(unsized.headers.get('content-encoding')).toBeNull();
    expect(unsized.headers.get('vary')).toBe('Accept-Encoding');
    expect(await unsized.json()).toEqual({ ok: true });
    const large = await compressResponse(request('gzip'), '/api/z', Response.json(JSON.parse(json)), undefined);
    expect(large.headers.get('content-encoding')).toBe('gzip');
    const gzipped = await bytesOf(large);
    expect(large.headers.get('content-length')).toBe(String(gzipped.byteLength));
    expect(JSON.parse(gunzipSync(gzipped).toString())).toEqual(JSON.parse(json));

    const head = await compressResponse(request('br', 'HEAD'), '/dashboard', htmlResponse(), undefined);
    expect(head.headers.get('content-encoding')).toBeNull();
    const noTransform = await compressResponse(request('br'), '/x', new Response(page, { headers: { 'content-type': 'text/plain', 'cache-control': 'no-transform' } }), undefined);
    expect(noTransform.headers.get('content-encoding')).toBeNull();
    const identity = await compressResponse(request(), '/dashboard', htmlResponse(), undefined);
    expect(identity.headers.get('content-encoding')).toBeNull();
    expect(await identity.text()).toBe(page);
  });
});
