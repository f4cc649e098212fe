/**
 * `rsc-html-stream/server` (0.0.7, MIT, Devon Govett) as Waku's SSR uses it, without decoding and
 * re-encoding the page. The original turns every chunk of HTML into a string and back into bytes
 * only to drop the closing `</body></html>` (so the RSC payload's scripts can go before it): that
 * was 4–6 % of a page's CPU. Here the HTML passes through as bytes and the trailer is cut as bytes:
 * the same bytes are written (tests/unit/rsc-html-stream.test.ts compares the two), and the HTML
 * of one turn is sent as one chunk. waku.config.ts puts this module in place of the package's.
 *
 * HTML chunks that arrive during one turn of the event loop are sent on together, then the RSC
 * payload's chunks follow as inline scripts (`(self.__FLIGHT_DATA||=[]).push(…)`), which Waku's
 * browser entry reads. The payload's text goes in a single-quoted literal rather than through
 * `JSON.stringify`: the payload is JSON, thousands of `"` that a double-quoted literal escapes one
 * by one, and few `'` or `\`. The browser reads the same strings (the test evaluates both); the
 * admin's 28 KB payload took about 270 µs to write, now about 75 µs.
 */
import { concatBytes } from '#api/lib/bytes.ts';

const encoder = new TextEncoder();
const trailer = '</body></html>';
const TRAILER = encoder.encode(trailer);

function withoutTrailer(chunk: Uint8Array): Uint8Array {
  if (chunk.byteLength < TRAILER.byteLength) return chunk;
  const at = chunk.byteLength - TRAILER.byteLength;
  for (let i = 0; i < TRAILER.byteLength; i++) if (chunk[at + i] !== TRAILER[i]) return chunk;
  return chunk.subarray(0, at);
}

export function injectRSCPayload(rscStream: ReadableStream<Uint8Array>, options?: { nonce?: string }): TransformStream<Uint8Array, Uint8Array> {
  const nonce = options && typeof options.nonce === 'string' ? options.nonce : undefined;
  const { promise: flightDataWritten, resolve: flightDataDone } = Promise.withResolvers<void>();
  let startedRSC = false;
  // Buffer the HTML enqueued during the current turn of the event loop and write it at once, so
  // RSC scripts never land between two partial chunks of HTML.
  const buffered: Uint8Array[] = [];
  let timeout: ReturnType<typeof setTimeout> | null = null;

  function flushBufferedChunks(controller: TransformStreamDefaultController<Uint8Array>) {
    const parts = buffered.map(withoutTrailer);
    buffered.length = 0;
    timeout = null;
    if (parts.length === 1) controller.enqueue(parts[0]!);
    else if (parts.length > 1) controller.enqueue(concatBytes(parts));
  }

  return new TransformStream({
    transform(chunk, controller) {
      buffered.push(chunk);
      if (timeout) return;
      timeout = setTimeout(() => {
        try {
          flushBufferedChunks(controller);
        } catch (e) {
          controller.error(e);
          flightDataDone();
          return;
        }
        if (!startedRSC) {
          startedRSC = true;
          writeRSCStream(rscStream, controller, nonce)
            .catch((err) => controller.error(err))
            .then(flightDataDone);
        }
      }, 0);
    },
    async flush(controller) {
      await flightDataWritten;
      if (timeout) {
        clearTimeout(timeout);
        flushBufferedChunks(controller);
      }
      controller.enqueue(TRAILER);
    },
  });
}

async function writeRSCStream(rscStream: ReadableStream<Uint8Array>, controller: TransformStreamDefaultController<Uint8Array>, nonce: string | undefined) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for await (const chunk of rscStream) {
    // Sent as a string when it decodes; binary data that is not valid Unicode goes as base64.
    try {
      writeChunk(literal(decoder.decode(chunk, { stream: true })), controller, nonce);
    } catch {
      const base64 = JSON.stringify(btoa(String.fromCodePoint(...chunk)));
      writeChunk(`Uint8Array.from(atob(${base64}), m => m.codePointAt(0))`, controller, nonce);
    }
  }
  const remaining = decoder.decode();
  if (remaining.length) writeChunk(literal(remaining), controller, nonce);
}

function writeChunk(chunk: string, controller: TransformStreamDefaultController<Uint8Array>, nonce: string | undefined) {
  controller.enqueue(encoder.encode(`<script${nonce ? ` nonce="${nonce}"` : ''}>(self.__FLIGHT_DATA||=[]).push(${chunk})</script>`));
}

/**
 * `text` as a single-quoted JavaScript string literal that is safe inside an HTML <script>: no line
 * terminator or NUL (the HTML parser turns CR into LF and NUL into U+FFFD), and no `<!--` or
 * `</script` (either would change where the script ends), each written as an escape instead.
 */
function literal(text: string): string {
  const escaped = text
    .replaceAll('\\', '\\\\')
    .replaceAll("'", "\\'")
    .replaceAll('\n', '\\n')
    .replaceAll('\r', '\\r')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029')
    .replaceAll('\0', '\\x00')
    .replaceAll('<!--', '\\x3C!--')
    .replace(/<\/(script)/gi, '\\x3C/$1');
  return `'${escaped}'`;
}

