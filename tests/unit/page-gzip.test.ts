import { describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, deflateRawSync, gunzipSync } from 'node:zlib';
import { inlineStylesheets } from '#api/http/inline-css.ts';
import { gzippedPage, gzipPage } from '#api/http/page-gzip.ts';

const publicDir = mkdtempSync(join(tmpdir(), 'sp-page-gzip-'));
mkdirSync(join(publicDir, 'assets'));
// a stylesheet larger than deflate's 32 KB window, as the built one is
const css = Array.from({ length: 1500 }, (_, i) => `.c${i}{margin:${i % 17}px;color:#${(i * 2654435761).toString(16).slice(-6)}}`).join('');
writeFileSync(join(publicDir, 'assets/app-1.css'), css);
writeFileSync(join(publicDir, 'assets/huge-2.css'), 'x'.repeat(200 * 1024));

const head = (href: string) =>
  `<!DOCTYPE html><html lang="hi"><head><meta charSet="utf-8"/><link rel="stylesheet" href="${href}" data-precedence="x"/><title>नमस्ते</title></head>`;
const body = `<body>${'<div class="c1 c2 c700">पन्ना एक</div>'.repeat(400)}<script>self.x=1</script></body></html>`;

/** A rendered page as Waku streams it: in chunks, some on later turns of the event loop. */
function rendered(html: string, chunkSize = 3000): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(html);
  return new ReadableStream({
    async start(controller) {
      for (let at = 0; at < bytes.byteLength; at += chunkSize) {
        controller.enqueue(bytes.slice(at, at + chunkSize));
        if ((at / chunkSize) % 3 === 2) await Bun.sleep(1);
      }
      controller.close();
    },
  });
}

const bytesOf = async (stream: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(stream).arrayBuffer());

describe('a page gzipped with its stylesheet compressed once (api/http/page-gzip.ts)', () => {
  for (const chunkSize of [100, 3000, 1_000_000]) {
    test(`decodes to the page with its stylesheet inlined, byte for byte (chunks of ${chunkSize})`, async () => {
      const html = head('/assets/app-1.css') + body;
      const expected = await bytesOf(inlineStylesheets(rendered(html, chunkSize), publicDir));
      const gzipped = await bytesOf(gzipPage(rendered(html, chunkSize), publicDir));
      // gunzip checks the trailer's CRC and length over every byte
      expect(Buffer.compare(gunzipSync(gzipped), expected)).toBe(0);
      expect(new TextDecoder().decode(expected)).toContain(`<style data-inlined="/assets/app-1.css">${css}</style>`);
      expect(gzipped.byteLength).toBeLessThan(expected.byteLength / 4);
    });
  }

  test("the stylesheet goes out as bytes compressed once, the same in every page, right after the text before it", async () => {
    const style = new TextEncoder().encode(`<style data-inlined="/assets/app-1.css">${css}</style>`);
    const once = deflateRawSync(style, { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
    const textBefore = new TextEncoder().encode('<!DOCTYPE html><html lang="hi"><head><meta charSet="utf-8"/>').byteLength;
    for (const html of [head('/assets/app-1.css') + body, head('/assets/app-1.css').replace('नमस्ते', 'Another page') + '<body><p>short</p></body></html>']) {
      const gzipped = Buffer.from(await bytesOf(gzipPage(rendered(html), publicDir)));
      // the gzip header (10 bytes), the text before the stylesheet as one stored block (5 + its bytes), then the stylesheet
      expect(gzipped.indexOf(once)).toBe(10 + 5 + textBefore);
    }
  });

  test('a page whose stylesheet is not inlined (too large), or with no head at all, is gzipped whole', async () => {
    for (const html of [head('/assets/huge-2.css') + body, '<p>no head</p>']) {
      const expected = await bytesOf(inlineStylesheets(rendered(html), publicDir));
      expect(Buffer.compare(gunzipSync(await bytesOf(gzipPage(rendered(html), publicDir))), expected)).toBe(0);
    }
  });

  test('only when the client takes gzip (q>0), for a GET with a body, and the answer allows compressing', async () => {
    const page = (headers: Record<string, string> = {}) => new Response(rendered(head('/assets/app-1.css') + body), { headers: { 'content-type': 'text/html', ...headers } });
    const get = (accept: string, method = 'GET') => new Request('http://localhost/terms', { method, headers: { 'accept-encoding': accept } });
    const gz = gzippedPage(get('gzip, deflate, br, zstd'), page(), publicDir)!;
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('vary')).toContain('Accept-Encoding');
    expect(gunzipSync(await bytesOf(gz.body!)).byteLength).toBeGreaterThan(css.length);
    expect(gzippedPage(get('br'), page(), publicDir)).toBeNull();
    expect(gzippedPage(get('gzip;q=0, br'), page(), publicDir)).toBeNull();
    expect(gzippedPage(get('gzip', 'HEAD'), page(), publicDir)).toBeNull();
    expect(gzippedPage(get('gzip'), page({ 'cache-control': 'no-transform' }), publicDir)).toBeNull();
  });
});
