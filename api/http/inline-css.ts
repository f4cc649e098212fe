import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The built stylesheet, inlined into each page's <head> so the first render waits for no second
 * request (on a phone's slow link that request is a round trip or two before anything shows).
 *
 * React keeps the stylesheet as a resource it looks up by its <link> (rel, data-precedence, href),
 * so the link stays, with `media="print"`: it no longer blocks rendering, and React still finds
 * it when it hydrates or when a navigation renders the same stylesheet, instead of adding another.
 */
const LINK = /<link rel="stylesheet"([^>]*?) href="(\/assets\/[\w.-]+\.css)"([^>]*)\/?>/g;
const MAX_INLINE_BYTES = 100 * 1024;

/** Each stylesheet's `<style>` element, read and encoded once: a page repeats it byte for byte. */
const cache = new Map<string, Uint8Array | null>();
const encoder = new TextEncoder();

function inlinedStyle(publicDir: string, href: string): Uint8Array | null {
  if (cache.has(href)) return cache.get(href)!;
  let css: string | null = null;
  try {
    css = readFileSync(join(publicDir, href), 'utf8');
  } catch {
    css = null;
  }
  // a stylesheet that could end the <style> element early, or too big to repeat in every page, stays linked
  if (css !== null && (css.length > MAX_INLINE_BYTES || /<\/style/i.test(css))) css = null;
  const style = css === null ? null : encoder.encode(`<style data-inlined="${href}">${css}</style>`);
  cache.set(href, style);
  return style;
}

/** The <head> as bytes, each built stylesheet's contents inlined before its (now non-blocking) link. */
export function inlineHead(head: string, publicDir: string): Uint8Array {
  const parts: Uint8Array[] = [];
  let text = '';
  let from = 0;
  for (const match of head.matchAll(LINK)) {
    const [link, before, href, after] = match as unknown as [string, string, string, string];
    const style = /\smedia=/.test(link) ? null : inlinedStyle(publicDir, href);
    text += head.slice(from, match.index);
    from = match.index + link.length;
    if (style === null) {
      text += link;
      continue;
    }
    parts.push(encoder.encode(text), style);
    text = `<link rel="stylesheet"${before} href="${href}"${after.replace(/\/$/, '')} media="print"/>`;
  }
  parts.push(encoder.encode(text + head.slice(from)));
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

/**
 * An HTML stream with its <head> rewritten by `inlineHead`: text is held only until `</head>`
 * (the first chunk, in practice); everything after it passes through as it comes.
 */
export function inlineStylesheets(body: ReadableStream<Uint8Array>, publicDir: string): ReadableStream<Uint8Array> {
  const marker = new TextEncoder().encode('</head>');
  let held = new Uint8Array(0);
  let passing = false;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (passing) return controller.enqueue(chunk);
        const joined = new Uint8Array(held.byteLength + chunk.byteLength);
        joined.set(held);
        joined.set(chunk, held.byteLength);
        const end = Buffer.from(joined.buffer, joined.byteOffset, joined.byteLength).indexOf(marker);
        if (end === -1) {
          held = joined;
          return;
        }
        passing = true;
        held = new Uint8Array(0);
        // bytes before the ASCII `</head>` are whole characters; the rest goes on as it came
        controller.enqueue(inlineHead(new TextDecoder().decode(joined.subarray(0, end)), publicDir));
        controller.enqueue(joined.subarray(end));
      },
      flush(controller) {
        if (!passing && held.byteLength > 0) controller.enqueue(held);
      },
    }),
  );
}
