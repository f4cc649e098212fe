import { stat } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import { withHeaders } from './headers.ts';

/**
 * Compression at the edge. Built assets (`/assets/*`) have brotli and gzip copies made at build
 * time (`scripts/compress-assets.ts`) and are served from them; pages, RSC payloads and JSON are
 * compressed as they stream, flushed after every chunk so the browser still gets the first bytes
 * (the head, the shell) before the render finishes. Images and other already-compressed bodies pass as they are.
 */
export type Encoding = 'br' | 'gzip';

/** Text types worth compressing; everything else (images, fonts, archives) is sent as it is. */
const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|manifest\+json|problem\+json)|image\/svg\+xml)/i;
/** Below this a known-length body is not worth a compressor. */
const MIN_BYTES = 1024;
/** On-the-fly levels trade size for CPU (brotli 11 is for build time only). */
const BROTLI_QUALITY = 4;
const GZIP_LEVEL = 6;

/** The encoding the client accepts that we prefer (brotli, then gzip), honouring q=0. */
export function negotiateEncoding(acceptEncoding: string | null): Encoding | null {
  if (!acceptEncoding) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  const allows = (name: string) => (accepted.get(name) ?? (accepted.has('*') ? accepted.get('*')! : 0)) > 0;
  if (allows('br')) return 'br';
  if (allows('gzip')) return 'gzip';
  return null;
}

const EXTENSION: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

function appendVary(headers: Headers) {
  const vary = headers.get('vary');
  if (!vary) headers.set('vary', 'Accept-Encoding');
  else if (!/accept-encoding/i.test(vary)) headers.set('vary', `${vary}, Accept-Encoding`);
}

/** A built asset's precompressed sibling, when the build made one and the client accepts it. */
async function precompressed(publicDir: string, pathname: string, encoding: Encoding | null, response: Response): Promise<Response | null> {
  if (!encoding) return null;
  const relative = normalize(decodeURIComponent(pathname)).replace(/^\/+/, '');
  if (!relative.startsWith('assets/') || relative.includes('..')) return null;
  const path = join(publicDir, `${relative}${EXTENSION[encoding]}`);
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) return null;
  const headers = new Headers(response.headers);
  headers.set('content-encoding', encoding);
  headers.set('content-length', String(info.size));
  headers.delete('etag'); // the identity file's validator would describe other bytes
  appendVary(headers);
  await response.body?.cancel();
  return new Response(Bun.file(path), { status: 200, headers });
}

/** The body compressed as it streams; every chunk from the source is flushed through at once. */
export function compressStream(body: ReadableStream<Uint8Array>, encoding: Encoding): ReadableStream<Uint8Array> {
  const zlib =
    encoding === 'br'
      ? createBrotliCompress({ flush: constants.BROTLI_OPERATION_FLUSH, params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } })
      : createGzip({ level: GZIP_LEVEL, flush: constants.Z_SYNC_FLUSH });
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      zlib.on('data', (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
      zlib.once('end', () => controller.close());
      zlib.once('error', (error) => controller.error(error));
      void (async () => {
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            if (!zlib.write(value)) await new Promise((resolve) => zlib.once('drain', resolve));
          }
          zlib.end();
        } catch (error) {
          zlib.destroy(error as Error);
        }
      })();
    },
    cancel(reason) {
      zlib.destroy();
      return reader.cancel(reason);
    },
  });
}

/**
 * The response, compressed for this request when that helps: a built asset from its
 * precompressed copy, a text body (HTML, RSC, JSON, CSS, JS) as a stream. Always adds
 * `Vary: Accept-Encoding` to what could have been compressed, so caches keep the variants apart.
 */
export async function compressResponse(request: Request, pathname: string, response: Response, publicDir: string | undefined): Promise<Response> {
  // Waku sends RSC payloads without a content type.
  const type = response.headers.get('content-type') ?? (pathname.startsWith('/RSC/') ? 'text/x-component' : '');
  if (!response.body || request.method === 'HEAD' || !COMPRESSIBLE.test(type)) return response;
  if (response.headers.has('content-encoding') || [204, 206, 304].includes(response.status)) return response;
  if (/no-transform/i.test(response.headers.get('cache-control') ?? '')) return response;
  const encoding = negotiateEncoding(request.headers.get('accept-encoding'));
  if (publicDir && response.status === 200 && pathname.startsWith('/assets/')) {
    const copy = await precompressed(publicDir, pathname, encoding, response);
    if (copy) return copy;
  }
  const length = Number(response.headers.get('content-length') ?? NaN);
  if (!encoding || length < MIN_BYTES) {
    // sent as it is: only the headers change, in place where they can (they can in Bun)
    const sent = withHeaders(response, { 'content-type': type });
    appendVary(sent.headers);
    return sent;
  }
  const headers = new Headers(response.headers);
  headers.set('content-type', type);
  appendVary(headers);
  headers.set('content-encoding', encoding);
  headers.delete('content-length');
  headers.delete('etag');
  return new Response(compressStream(response.body, encoding), { status: response.status, statusText: response.statusText, headers });
}
