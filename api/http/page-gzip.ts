import { constants, crc32, createDeflateRaw } from 'node:zlib';
import { appendVary, GZIP_LEVEL, negotiateEncoding, zlibStream } from './compression.ts';
import { headParts, readHead, type InlinedStyle } from './inline-css.ts';

/**
 * A page gzipped without compressing its stylesheet again. Every page inlines the same 56 KB
 * stylesheet (inline-css.ts); compressed with the rest of each response it was half the bytes the
 * compressor saw, and compression a sixth of a data page's CPU. Deflate allows what brotli does
 * not: blocks compressed apart can follow one another in one stream. So a page is sent as a gzip
 * member whose deflate data is the text before the stylesheet as a stored block, the stylesheet's
 * `<style>` element compressed once at level 9 (`InlinedStyle.deflated`), then the rest of the page
 * compressed as it streams, by a compressor that starts from the stylesheet's last 32 KB as its
 * dictionary (so the rest may refer back into it as one stream would). The CRC and length of the
 * trailer cover every byte. The result is as small as brotli at quality 4 (a detail page: 21.1 KB
 * either way) for less than half its CPU, so a page goes out gzipped when the browser takes gzip.
 */

const GZIP_HEADER = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** deflate's window: how far back a later block may refer */
const WINDOW = 32 * 1024;
const MAX_STORED = 0xffff;
const encoder = new TextEncoder();

/** `data` as deflate stored blocks (not final): copied as it is, byte-aligned. */
function storedBlocks(data: Uint8Array): Uint8Array[] {
  const blocks: Uint8Array[] = [];
  for (let at = 0; at < data.byteLength; at += MAX_STORED) {
    const piece = data.subarray(at, at + MAX_STORED);
    const block = new Uint8Array(5 + piece.byteLength);
    block[0] = 0; // BFINAL 0, BTYPE 00 (stored), padded to the byte
    block[1] = piece.byteLength & 0xff;
    block[2] = piece.byteLength >> 8;
    block[3] = ~piece.byteLength & 0xff;
    block[4] = (~piece.byteLength >> 8) & 0xff;
    block.set(piece, 5);
    blocks.push(block);
  }
  return blocks;
}

function trailer(crc: number, size: number): Uint8Array {
  const bytes = new Uint8Array(8);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, crc >>> 0, true);
  view.setUint32(4, size >>> 0, true);
  return bytes;
}

/** The last `WINDOW` bytes of these parts, in order. */
function lastWindow(parts: Uint8Array[]): Uint8Array {
  const kept: Uint8Array[] = [];
  let size = 0;
  for (let i = parts.length - 1; i >= 0 && size < WINDOW; i--) {
    const part = parts[i]!;
    const take = part.subarray(Math.max(0, part.byteLength - (WINDOW - size)));
    kept.unshift(take);
    size += take.byteLength;
  }
  return new Uint8Array(Buffer.concat(kept));
}

/** The page's HTML (as rendered, its stylesheet not inlined yet) as a gzip stream with the stylesheet inlined. */
async function gzipStream(reader: ReadableStreamDefaultReader<Uint8Array>, publicDir: string): Promise<ReadableStream<Uint8Array>> {
  const { head, after } = await readHead(reader);
  const parts: (string | InlinedStyle)[] = head === null ? [] : headParts(head, publicDir);
  const lastStyle = parts.findLastIndex((part) => typeof part !== 'string');
  // the head up to its last stylesheet goes out ready-made: text stored, stylesheets precompressed
  const sent: Uint8Array[] = [];
  const frames: Uint8Array[] = [GZIP_HEADER];
  for (const part of parts.slice(0, lastStyle + 1)) {
    const bytes = typeof part === 'string' ? encoder.encode(part) : part.bytes;
    sent.push(bytes);
    frames.push(...(typeof part === 'string' ? storedBlocks(bytes) : [part.deflated()]));
  }
  let crc = sent.reduce((sum, bytes) => crc32(bytes, sum), 0);
  let size = sent.reduce((n, bytes) => n + bytes.byteLength, 0);
  const rest = parts.slice(lastStyle + 1).map((part) => encoder.encode(part as string));
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const bytes of rest) controller.enqueue(bytes);
      if (after.byteLength > 0) controller.enqueue(after);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const dictionary = size > 0 ? lastWindow(sent) : undefined;
  const deflate = createDeflateRaw({ level: GZIP_LEVEL, ...(dictionary ? { dictionary } : {}) });
  return zlibStream(input, deflate, constants.Z_SYNC_FLUSH, {
    head: frames,
    input(chunk) {
      crc = crc32(chunk, crc);
      size += chunk.byteLength;
    },
    tail: () => trailer(crc, size),
  });
}

/** `body` gzipped with its stylesheet inlined, the stylesheet's part compressed once (see above). */
export function gzipPage(body: ReadableStream<Uint8Array>, publicDir: string): ReadableStream<Uint8Array> {
  const source = body.getReader();
  let compressed: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      compressed ??= (await gzipStream(source, publicDir)).getReader();
      const { done, value } = await compressed.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => (compressed ?? source).cancel(reason),
  });
}

/**
 * The rendered page gzipped this way, when the client takes gzip and the answer may be compressed;
 * otherwise null (the edge inlines the stylesheet and compresses as for any response).
 */
export function gzippedPage(request: Request, response: Response, publicDir: string): Response | null {
  if (!response.body || request.method === 'HEAD' || [204, 206, 304].includes(response.status)) return null;
  if (/no-transform/i.test(response.headers.get('cache-control') ?? '') || response.headers.has('content-encoding')) return null;
  if (negotiateEncoding(request.headers.get('accept-encoding'), ['gzip', 'br']) !== 'gzip') return null;
  const headers = new Headers(response.headers);
  headers.set('content-encoding', 'gzip');
  headers.delete('content-length');
  headers.delete('etag');
  appendVary(headers);
  return new Response(gzipPage(response.body, publicDir), { status: response.status, statusText: response.statusText, headers });
}
