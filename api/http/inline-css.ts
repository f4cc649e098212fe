import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, deflateRawSync } from 'node:zlib';
import { cookieValue } from '#api/modules/users/rules.ts';

/**
 * The built stylesheet, inlined into each page's <head> so the first render waits for no second
 * request (on a phone's slow link that request is a round trip or two before anything shows).
 *
 * React keeps the stylesheet as a resource it looks up by its <link> (rel, data-precedence, href),
 * so the link stays, with `media="print"`: it no longer blocks rendering, and React still finds
 * it when it hydrates or when a navigation renders the same stylesheet, instead of adding another.
 *
 * Only until the browser has the file: a page that inlines it also sets STYLESHEET_COOKIE, naming
 * this build's stylesheets, and the non-blocking link fetches the file into the browser's cache
 * (immutable for a year). A later full page load that sends the cookie keeps React's plain link: the
 * browser uses its cached, already parsed copy instead of reading 56 KB of CSS in every page again
 * (measured in Chromium: a tenth of a CPU-second a page load on this machine, and 9 KB of brotli).
 * Were the file gone from its cache, the link fetches it again, one request before the first paint.
 */
const LINK = /<link rel="stylesheet"([^>]*?) href="(\/assets\/[\w.-]+\.css)"([^>]*)\/?>/g;
const MAX_INLINE_BYTES = 100 * 1024;

/** A stylesheet's `<style>` element, made once: every page repeats it byte for byte. */
export interface InlinedStyle {
  bytes: Uint8Array;
  /** the element compressed once, as raw deflate ending in a sync flush: a gzipped page sends these bytes as they are (page-gzip.ts) */
  deflated(): Uint8Array;
}

const cache = new Map<string, InlinedStyle | null>();
const encoder = new TextEncoder();

function inlinedStyle(publicDir: string, href: string): InlinedStyle | null {
  if (cache.has(href)) return cache.get(href)!;
  let css: string | null = null;
  try {
    css = readFileSync(join(publicDir, href), 'utf8');
  } catch {
    css = null;
  }
  // a stylesheet that could end the <style> element early, or too big to repeat in every page, stays linked
  if (css !== null && (css.length > MAX_INLINE_BYTES || /<\/style/i.test(css))) css = null;
  if (css === null) {
    cache.set(href, null);
    return null;
  }
  const bytes = encoder.encode(`<style data-inlined="${href}">${css}</style>`);
  let deflated: Uint8Array | undefined;
  const style = { bytes, deflated: () => (deflated ??= new Uint8Array(deflateRawSync(bytes, { level: 9, finishFlush: constants.Z_SYNC_FLUSH }))) };
  cache.set(href, style);
  return style;
}

const STYLESHEET_COOKIE = 'sp_css';
const COOKIE_MAX_AGE_S = 30 * 24 * 3600;
const stamps = new Map<string, string>();

/** Names the built stylesheets of `publicDir` (a new build with changed CSS has a new stamp). */
function stylesheetStamp(publicDir: string): string {
  let stamp = stamps.get(publicDir);
  if (stamp === undefined) {
    let names: string[] = [];
    try {
      names = readdirSync(join(publicDir, 'assets')).filter((name) => name.endsWith('.css'));
    } catch {
      // no assets folder: nothing to inline either
    }
    stamp = createHash('sha256').update(names.sort().join('\n')).digest('base64url').slice(0, 16);
    stamps.set(publicDir, stamp);
  }
  return stamp;
}

/** Whether the browser says it holds this build's stylesheets (it was sent a page that inlined them). */
export function hasStylesheets(request: Request, publicDir: string): boolean {
  return cookieValue(request.headers.get('cookie'), STYLESHEET_COOKIE) === stylesheetStamp(publicDir);
}

/** The Set-Cookie of a page that inlines the stylesheets: its link fetches them into the cache. */
export function stylesheetCookie(publicDir: string, https: boolean): string {
  return `${STYLESHEET_COOKIE}=${stylesheetStamp(publicDir)}; Path=/; Max-Age=${COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Lax${https ? '; Secure' : ''}`;
}

/** The <head> in order: its text, and each built stylesheet's `<style>` before its (now non-blocking) link. */
export function headParts(head: string, publicDir: string): (string | InlinedStyle)[] {
  const parts: (string | InlinedStyle)[] = [];
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
    parts.push(text, style);
    text = `<link rel="stylesheet"${before} href="${href}"${after.replace(/\/$/, '')} media="print"/>`;
  }
  parts.push(text + head.slice(from));
  return parts;
}

/** The <head> as bytes, each built stylesheet's contents inlined before its (now non-blocking) link. */
export function inlineHead(head: string, publicDir: string): Uint8Array[] {
  return headParts(head, publicDir).map((part) => (typeof part === 'string' ? encoder.encode(part) : part.bytes));
}

/** Bytes held up to `</head>` (in its first chunk, in practice), then the head and what followed it. */
export async function readHead(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<{ head: string | null; after: Uint8Array }> {
  let held: Uint8Array = new Uint8Array(0);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { head: null, after: held };
    held = held.byteLength === 0 ? value : Buffer.concat([held, value]);
    const end = Buffer.from(held.buffer, held.byteOffset, held.byteLength).indexOf(HEAD_END);
    // bytes before the ASCII `</head>` are whole characters; the rest goes on as it came
    if (end !== -1) return { head: new TextDecoder().decode(held.subarray(0, end)), after: held.subarray(end) };
  }
}
const HEAD_END = new TextEncoder().encode('</head>');

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
        for (const part of inlineHead(new TextDecoder().decode(joined.subarray(0, end)), publicDir)) controller.enqueue(part);
        controller.enqueue(joined.subarray(end));
      },
      flush(controller) {
        if (!passing && held.byteLength > 0) controller.enqueue(held);
      },
    }),
  );
}
