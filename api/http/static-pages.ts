import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { LANGUAGE_COOKIE, visitorLanguage, type Language } from '#api/modules/users/rules.ts';
import { negotiateEncoding, type Encoding } from './compression.ts';
import { inlineStylesheets } from './inline-css.ts';

/**
 * Pages with nothing per visitor, served from memory. A signed-out visitor's /email-signin, /terms,
 * /privacy and not-found page are the same bytes for everyone who reads them in the same language,
 * so each is rendered once per language (through Waku, as any request would render it: same HTML,
 * same RSC payload) when it is first asked for, and kept: identity and gzip copies made once (brotli
 * at its first asking), an ETag answered with 304. Not at start: rendering all eight there cost every
 * start 0.45 CPU-s (measured 2026-11-28), for pages a server may never be asked for, while the first
 * visitor of each only waits for the render any page costs.
 *
 * Who gets a copy: a GET or HEAD with no query string and no session cookie (a signed-in visitor
 * sees their header, menu and terms banner: their page is rendered for them, as before). The
 * language is picked by the rule the pages use for a signed-out visitor (`visitorLanguage`: the
 * language cookie, else Accept-Language).
 *
 * Scripts: a copy cannot carry a nonce made for each response, so its inline scripts (Waku's
 * bootstrap and RSC payload) are allowed by their SHA-256 hashes in the CSP instead: exactly those
 * scripts run, and an injected one does not, as with a nonce.
 *
 * Render time settings and texts never change under a running server; the terms and privacy files
 * may (an edit shows without a restart), so a copy is made again when either file changes.
 */

/** What the pages tell the edge about their routes (src/server-entry.tsx). */
export interface PageRoutes {
  /** paths whose page is the same for every signed-out visitor in one language */
  prerendered: ReadonlySet<string>;
  /** whether no page answers this path, so the not-found page does */
  isNotFound(pathname: string): boolean | Promise<boolean>;
}

export interface StaticCopy {
  status: number;
  bodies: { identity: Uint8Array<ArrayBuffer>; gzip: Uint8Array<ArrayBuffer>; br?: Uint8Array<ArrayBuffer> };
  /** the brotli body, compressed at its first asking (then in `bodies.br`) */
  brotli: () => Promise<Uint8Array<ArrayBuffer>>;
  /** the identity body's digest; each encoding's ETag adds its name */
  digest: string;
  /** CSP sources for the copy's inline scripts: 'sha256-…' */
  scriptHashes: string[];
}

export interface StaticAnswer {
  response: Response;
  scriptHashes: string[];
}

interface Options {
  /** the built public folder: stylesheets are inlined as on every page (inline-css.ts) */
  publicDir?: string;
  /** a stamp of what the pages read at each render that can change (the legal files): a new stamp makes new copies */
  stamp: () => string;
}

const NOT_FOUND = '404';
const SESSION_COOKIE = /(?:^|;\s*)(?:__Host-)?sp_session=[^;\s]/;
const PRERENDER_ID = 'prerender';

/** The size and modification time of each file, as one string: it changes when any file is edited. */
export function filesStamp(paths: readonly string[]): () => string {
  return () =>
    paths
      .map((path) => {
        try {
          const { size, mtimeMs } = statSync(path);
          return `${size}:${mtimeMs}`;
        } catch {
          return 'missing';
        }
      })
      .join('|');
}

/** The SHA-256 CSP source of every inline script (one without `src`) in the page. */
export async function inlineScriptHashes(html: Uint8Array<ArrayBuffer>): Promise<string[]> {
  const hashes: string[] = [];
  let current: string[] | null = null;
  const rewriter = new HTMLRewriter().on('script', {
    element(script) {
      if (script.hasAttribute('src')) return;
      const text: string[] = [];
      current = text;
      script.onEndTag(() => {
        hashes.push(`'sha256-${createHash('sha256').update(text.join('')).digest('base64')}'`);
        current = null;
      });
    },
    text(chunk) {
      current?.push(chunk.text);
    },
  });
  await rewriter.transform(new Response(html)).arrayBuffer();
  return [...new Set(hashes)];
}

// Off the main thread: a brotli copy at quality 11 takes about 90 ms of CPU here, which would hold
// every request (and a SIGTERM) waiting if it ran on the event loop.
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

async function makeCopy(response: Response, publicDir: string | undefined): Promise<StaticCopy> {
  const body = publicDir && response.body ? inlineStylesheets(response.body, publicDir) : response.body;
  const identity = new Uint8Array(await new Response(body).arrayBuffer());
  const gz = await gzipAsync(identity, { level: 9 });
  const bodies: StaticCopy['bodies'] = { identity, gzip: new Uint8Array(gz) };
  // Brotli, the costly one (8 copies: 0.7 CPU-s at every start), waits until a visitor takes it:
  // browsers send br only over https, so a server on plain http (behind a proxy that compresses,
  // or on a laptop) never makes it.
  let brotli: Promise<Uint8Array<ArrayBuffer>> | undefined;
  const compressBrotli = async () => {
    const br = await brotliAsync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: identity.byteLength } });
    return (bodies.br = new Uint8Array(br));
  };
  return {
    status: response.status,
    bodies,
    brotli: () => (brotli ??= compressBrotli()),
    digest: createHash('sha256').update(identity).digest('base64url').slice(0, 27),
    scriptHashes: await inlineScriptHashes(identity),
  };
}

/**
 * The encoding to answer in: brotli once its copy is made; until then gzip when the visitor takes it
 * (while the brotli copy is made for the next one), else the visitor waits for brotli.
 */
async function encodingNow(copy: StaticCopy, acceptEncoding: string | null): Promise<Encoding | null> {
  const best = negotiateEncoding(acceptEncoding);
  if (best !== 'br' || copy.bodies.br) return best;
  const made = copy.brotli();
  if (negotiateEncoding(acceptEncoding, ['gzip'])) return 'gzip';
  await made.catch(() => undefined); // not made: the identity body
  return copy.bodies.br ? 'br' : null;
}

const etagOf = (copy: StaticCopy, encoding: Encoding | null) => `"${copy.digest}${encoding ? `-${encoding}` : ''}"`;

/** Whether If-None-Match names this ETag (weak comparison, as for GET). */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

export function createStaticPages(options: Options) {
  const copies = new Map<string, { stamp: string; copy: Promise<StaticCopy | null> }>();

  /** The page's copy in `lang`, rendered now if there is none yet (or it is stale); null when it could not be made. */
  function copyOf(key: string, path: string, lang: Language, render: (request: Request) => Promise<Response>, origin: string): Promise<StaticCopy | null> {
    const stamp = options.stamp();
    const id = `${key} ${lang}`;
    const held = copies.get(id);
    if (held && held.stamp === stamp) return held.copy;
    // rendered as a signed-out visitor who chose this language would see it
    const request = new Request(`${origin}${path}`, { headers: { cookie: `${LANGUAGE_COOKIE}=${lang}`, 'x-request-id': PRERENDER_ID } });
    const expected = key === NOT_FOUND ? 404 : 200;
    // never rejects: a copy that could not be made (the render or its stream failed) is rendered per request
    const copy = render(request)
      .then(async (response) => {
        const html = (response.headers.get('content-type') ?? '').startsWith('text/html');
        if (response.status !== expected || !html) {
          await response.body?.cancel();
          return null;
        }
        return makeCopy(response, options.publicDir);
      })
      .catch(() => null);
    copies.set(id, { stamp, copy });
    // a failed render is not kept: the next request tries again
    void copy.then((made) => {
      if (!made && copies.get(id)?.copy === copy) copies.delete(id);
    });
    return copy;
  }

  /** Which copy answers this request ('/terms', '404'), or null when its page is rendered for it. */
  async function keyFor(request: Request, url: URL, routes: PageRoutes): Promise<string | null> {
    if (request.method !== 'GET' && request.method !== 'HEAD') return null;
    if (url.search !== '' || SESSION_COOKIE.test(request.headers.get('cookie') ?? '')) return null;
    if (routes.prerendered.has(url.pathname)) return url.pathname;
    if (url.pathname.startsWith('/RSC/') || url.pathname.includes('%')) return null;
    return (await routes.isNotFound(url.pathname)) ? NOT_FOUND : null;
  }

  return {
    /**
     * The stored page for this request, or null when the page must be rendered for it. `render`
     * renders a page as the edge's caller does (Waku), to make a copy the first time.
     */
    async answer(request: Request, routes: PageRoutes, render: (request: Request) => Promise<Response>): Promise<StaticAnswer | null> {
      const url = new URL(request.url);
      const key = await keyFor(request, url, routes);
      if (!key) return null;
      const lang = visitorLanguage({ cookie: request.headers.get('cookie'), acceptLanguage: request.headers.get('accept-language') });
      const copy = await copyOf(key, url.pathname, lang, render, url.origin);
      if (!copy) return null;
      const encoding = await encodingNow(copy, request.headers.get('accept-encoding'));
      const body = copy.bodies[encoding ?? 'identity']!;
      const headers = new Headers({
        'content-type': 'text/html; charset=utf-8',
        // asked again each time (a 304 when unchanged): signing in or choosing a language changes the answer
        'cache-control': 'private, no-cache',
        vary: 'Accept-Encoding, Accept-Language, Cookie',
      });
      if (encoding) headers.set('content-encoding', encoding);
      // a not-found answer has no validator: 304 is for pages that exist
      if (copy.status === 200) {
        const etag = etagOf(copy, encoding);
        headers.set('etag', etag);
        if (matches(request.headers.get('if-none-match'), etag)) {
          headers.delete('content-type');
          headers.delete('content-encoding');
          return { response: new Response(null, { status: 304, headers }), scriptHashes: copy.scriptHashes };
        }
      }
      headers.set('content-length', String(body.byteLength));
      const response = new Response(request.method === 'HEAD' ? null : body, { status: copy.status, headers });
      return { response, scriptHashes: copy.scriptHashes };
    },
  };
}

export type StaticPages = ReturnType<typeof createStaticPages>;
