import { stat } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import type { Transform } from 'node:stream';
import { brotliCompressSync, constants, createBrotliCompress, createGzip } from 'node:zlib';
import { withHeaders } from './headers.ts';

/**
 * Compression at the edge. Built assets (`/assets/*`) have brotli and gzip copies made at build
 * time (`scripts/compress-assets.ts`) and are served from them; a small body of known length (JSON)
 * is compressed whole; pages and RSC payloads are compressed as they stream, flushed after every
 * chunk so the browser still gets the first bytes (the head, the shell) before the render finishes.
 * Images and other already-compressed bodies pass as they are.
 */
export type Encoding = 'br' | 'gzip';

/** Text types worth compressing; everything else (images, fonts, archives) is sent as it is. */
const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|manifest\+json|problem\+json)|image\/svg\+xml)/i;
/** Below this a known-length body is not worth a compressor. */
const MIN_BYTES = 1024;
/** On-the-fly levels trade size for CPU (brotli 11 is for build time only). */
const BROTLI_QUALITY = 4;
/**
 * Brotli's window: 256 KB, larger than any page or JSON body we send. The default (4 MB) compresses
 * these bodies to the same bytes but costs each response about 0.3 ms more to set up.
 */
const BROTLI_WINDOW_BITS = 18;
const brotliParams = (sizeHint?: number) => ({
  [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
  [constants.BROTLI_PARAM_LGWIN]: BROTLI_WINDOW_BITS,
  ...(sizeHint === undefined ? {} : { [constants.BROTLI_PARAM_SIZE_HINT]: sizeHint }),
});
export const GZIP_LEVEL = 6;

type Accepted = Readonly<Record<Encoding, boolean>>;
const NOTHING: Accepted = { br: false, gzip: false };
/** Clients send few distinct Accept-Encoding values: each is read once. */
const acceptedByHeader = new Map<string, Accepted>();

/** Which of our encodings the client accepts, honouring q=0 and `*`. */
function acceptedEncodings(acceptEncoding: string | null): Accepted {
  if (!acceptEncoding) return NOTHING;
  let accepts = acceptedByHeader.get(acceptEncoding);
  if (!accepts) {
    accepts = readAcceptEncoding(acceptEncoding);
    if (acceptedByHeader.size >= 100) acceptedByHeader.clear();
    acceptedByHeader.set(acceptEncoding, accepts);
  }
  return accepts;
}

function readAcceptEncoding(acceptEncoding: string): Accepted {
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  const allows = (name: string) => (accepted.get(name) ?? (accepted.has('*') ? accepted.get('*')! : 0)) > 0;
  return { br: allows('br'), gzip: allows('gzip') };
}

/** The encoding the client accepts that we prefer (for streams and built assets brotli, then gzip). */
export function negotiateEncoding(acceptEncoding: string | null, preferred: readonly Encoding[] = ['br', 'gzip']): Encoding | null {
  const accepts = acceptedEncodings(acceptEncoding);
  return preferred.find((encoding) => accepts[encoding]) ?? null;
}

const streamEncoding = (accepts: Accepted): Encoding | null => (accepts.br ? 'br' : accepts.gzip ? 'gzip' : null);

/**
 * A body compressed in one call (an API answer's JSON) up to GZIP_UP_TO prefers gzip: node:zlib's
 * one-call brotli still builds a compressor stream and its window tables for each response, which
 * measured 0.15 ms a customer detail under load (a sixth of the app's own time then); Bun.gzipSync
 * with libdeflate is one native call, and on bodies this size brotli saves only a few percent of
 * the bytes. Level 1: the admin list's 13.6 KB page is 2,041 bytes at level 1 (17 µs) and 1,996 at
 * level 6 (30 µs). Larger bodies (the OpenAPI document, 270 KB) keep brotli, whose setup is then
 * small beside the work and whose output is markedly smaller.
 */
const WHOLE_GZIP_LEVEL = 1;
const GZIP_UP_TO = 64 * 1024;
const wholeEncoding = (accepts: Accepted, bytes: number): Encoding | null =>
  accepts.gzip && (bytes <= GZIP_UP_TO || !accepts.br) ? 'gzip' : accepts.br ? 'br' : null;

const EXTENSION: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/** The Vary value naming Accept-Encoding, or undefined when it names it already. */
function varyWithEncoding(vary: string | null): string | undefined {
  if (!vary) return 'Accept-Encoding';
  return /accept-encoding/i.test(vary) ? undefined : `${vary}, Accept-Encoding`;
}

export function appendVary(headers: Headers) {
  const vary = varyWithEncoding(headers.get('vary'));
  if (vary) headers.set('vary', vary);
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

/** Up to this size a body of known length is compressed in one call (about a millisecond at most). */
const WHOLE_BODY_BYTES = 256 * 1024;
/** Bodies the API builds whole, never streamed: read and compressed in one call whatever their size. */
const WHOLE = /^application\/(problem\+)?json/i;

function compressWhole(body: Uint8Array<ArrayBuffer>, encoding: Encoding): Uint8Array<ArrayBuffer> {
  return encoding === 'br' ? (brotliCompressSync(body, { params: brotliParams(body.byteLength) }) as Buffer<ArrayBuffer>) : Bun.gzipSync(body, { level: WHOLE_GZIP_LEVEL, library: 'libdeflate' });
}

const IDLE = Symbol('idle');
/** Resolves on the next turn of the event loop: whatever the source had ready by then has been read. */
const nextTurn = () => new Promise<typeof IDLE>((resolve) => setImmediate(resolve, IDLE));

/**
 * The body compressed as it streams. The compressor is flushed whenever the source pauses (nothing
 * more to read by the next turn of the event loop), not after every chunk: the browser still gets
 * the head and the shell as soon as they are rendered, while the handful of chunks a render emits
 * at once are compressed together (a flush per chunk costs a page render about 1 ms more CPU).
 */
export function compressStream(body: ReadableStream<Uint8Array>, encoding: Encoding): ReadableStream<Uint8Array> {
  const zlib = encoding === 'br' ? createBrotliCompress({ params: brotliParams() }) : createGzip({ level: GZIP_LEVEL });
  // a sync flush (what was written, decodable now) keeps the compressor's history; zlib.flush()'s
  // default for gzip is a full flush, which throws the history away and compresses the rest worse
  return zlibStream(body, zlib, encoding === 'br' ? constants.BROTLI_OPERATION_FLUSH : constants.Z_SYNC_FLUSH);
}

/** Bytes written around a compressor's own output: a container's header and trailer (page-gzip.ts). */
export interface Framing {
  /** sent before the compressor's first byte */
  head: Uint8Array[];
  /** sees each chunk of the input as it goes in */
  input(chunk: Uint8Array): void;
  /** sent after the compressor's last byte */
  tail(): Uint8Array;
}

/** `body` through the zlib compressor `zlib`, flushed (`flushKind`) whenever the source pauses (compressStream). */
export function zlibStream(body: ReadableStream<Uint8Array>, zlib: Transform, flushKind: number, framing?: Framing): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const write = (chunk: Uint8Array) => (zlib.write(chunk) ? undefined : new Promise((resolve) => zlib.once('drain', resolve)));
  const flush = () => new Promise<void>((resolve) => (zlib as Transform & { flush(kind: number, done: () => void): void }).flush(flushKind, () => resolve()));
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const bytes of framing?.head ?? []) controller.enqueue(bytes);
      zlib.on('data', (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
      zlib.once('end', () => {
        if (framing) controller.enqueue(framing.tail());
        controller.close();
      });
      zlib.once('error', (error) => controller.error(error));
      void (async () => {
        try {
          let unflushed = false;
          for (;;) {
            const next = reader.read();
            if (unflushed && (await Promise.race([next, nextTurn()])) === IDLE) {
              await flush();
              unflushed = false;
            }
            const { done, value } = await next;
            if (done) break;
            framing?.input(value);
            await write(value);
            unflushed = true;
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
  const accepts = acceptedEncodings(request.headers.get('accept-encoding'));
  const encoding = streamEncoding(accepts);
  if (publicDir && response.status === 200 && pathname.startsWith('/assets/')) {
    const copy = await precompressed(publicDir, pathname, encoding, response);
    if (copy) return copy;
  }
  const length = Number(response.headers.get('content-length') ?? NaN);
  const sentAsItIs = () => {
    // only the headers change, in place where they can (they can in Bun)
    const changes: Record<string, string> = response.headers.has('content-type') ? {} : { 'content-type': type };
    const vary = varyWithEncoding(response.headers.get('vary'));
    if (vary) changes.vary = vary;
    return withHeaders(response, changes);
  };
  if (!encoding || length < MIN_BYTES) return sentAsItIs();
  if (WHOLE.test(type) || length <= WHOLE_BODY_BYTES) {
    // a body built whole (an API's JSON, whose length a Response does not tell) is compressed in one
    // call, and a small one not at all: a compressor stream costs more than a small body's work
    const body = new Uint8Array(await response.arrayBuffer());
    if (body.byteLength < MIN_BYTES) {
      const sent = sentAsItIs();
      return new Response(body, { status: sent.status, statusText: sent.statusText, headers: sent.headers });
    }
    const whole = wholeEncoding(accepts, body.byteLength)!;
    const compressed = compressWhole(body, whole);
    const headers = compressedHeaders(response, type, whole);
    headers.set('content-length', String(compressed.byteLength));
    return new Response(compressed, { status: response.status, statusText: response.statusText, headers });
  }
  const headers = compressedHeaders(response, type, encoding);
  headers.delete('content-length');
  return new Response(compressStream(response.body, encoding), { status: response.status, statusText: response.statusText, headers });
}

function compressedHeaders(response: Response, type: string, encoding: Encoding): Headers {
  const headers = new Headers(response.headers);
  headers.set('content-type', type);
  appendVary(headers);
  headers.delete('etag');
  headers.set('content-encoding', encoding);
  return headers;
}
