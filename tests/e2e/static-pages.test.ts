import { describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { appendFileSync, copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { hydrated, useServerAndBrowser } from '#tests/helpers/browser.ts';
import { ROOT } from '#tests/helpers/cli.ts';

/**
 * Pages with nothing per visitor (/email-signin, /terms, /privacy and the not-found page) are
 * rendered once per language and answered from memory to signed-out visitors
 * (api/http/static-pages.ts). These tests hold them to what a render of the same page answers.
 */
const termsDir = mkdtempSync(join(tmpdir(), 'sp-static-terms-'));
const termsFile = join(termsDir, 'terms.md');
copyFileSync(join(ROOT, 'content/terms.md'), termsFile);

const app = useServerAndBrowser({ TERMS_FILE: termsFile });

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${app.server.url}${path}`, { headers: { 'accept-encoding': 'identity', ...headers }, redirect: 'manual' });
/** A signed-out visitor whose page is rendered for them: a session cookie that no longer signs anyone in. */
const ENDED_SESSION = 'sp_session=ended';
/** What differs between two renders of a page: the nonce on its scripts. */
const withoutNonces = (html: string) => html.replace(/ nonce="[^"]*"/g, '');
/** a payload script and its single-quoted string (src/lib/rsc-html-stream.ts) */
const FLIGHT = /<script>\(self\.__FLIGHT_DATA\|\|=\[\]\)\.push\(('(?:[^'\\]|\\.)*')\)<\/script>/g;
/** the string a payload script pushes, as the browser reads its literal */
const pushedText = (literal: string) => new Function(`return ${literal}`)() as string;
/**
 * A page as the browser gets it: its markup without the RSC payload's scripts, the head's links,
 * and the payload's rows. Two renders of one page send the same of each, but the payload split into
 * scripts, its rows and the head's preload links ordered as each render's timing had them ready
 * (rows name each other by id, so their order does not matter; nor does the links').
 */
function pageContent(html: string): { markup: string; links: string[]; rows: string[] } {
  const plain = withoutNonces(html);
  const payload = [...plain.matchAll(FLIGHT)].map((m) => pushedText(m[1]!)).join('');
  const [head, body] = plain.replace(FLIGHT, '').split('</head>');
  const links = [...head!.matchAll(/<link [^>]*>/g)].map((m) => m[0]).sort();
  return { markup: `${head!.replace(/<link [^>]*>/g, '')}</head>${body}`, links, rows: payload.split('\n').filter(Boolean).sort() };
}
const scriptSrc = (res: Response) => res.headers.get('content-security-policy')!.split('; ').find((d) => d.startsWith('script-src'))!;
const inlineScripts = (html: string) => [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([^]*?)<\/script>/g)].map((m) => m[1]!);
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('pages with nothing per visitor are served from memory', () => {
  for (const [path, status] of [['/email-signin', 200], ['/terms', 200], ['/privacy', 200], ['/no/such/page', 404]] as const) {
    for (const lang of ['en', 'hi']) {
      test(`${path} in ${lang}: status ${status}, the same HTML as the page rendered for the visitor, from memory (an ETag, no nonce)`, async () => {
        const stored = await get(path, { 'accept-language': lang === 'hi' ? 'hi-IN,hi;q=0.9' : 'en-IN,en;q=0.8' });
        const rendered = await get(path, { cookie: `${ENDED_SESSION}; swappoints_lang=${lang}` });
        expect(stored.status).toBe(status);
        expect(rendered.status).toBe(status);
        const html = await stored.text();
        expect(html).toContain(`<html lang="${lang}"`);
        expect(html).not.toContain(' nonce=');
        expect(pageContent(html)).toEqual(pageContent(await rendered.text()));
        expect(pageContent(html).rows.length).toBeGreaterThan(0);
        // the rendered page carries a fresh nonce; the stored one is allowed by its scripts' hashes
        expect(scriptSrc(rendered)).toContain("'nonce-");
        expect(scriptSrc(stored)).not.toContain("'nonce-");
        expect(stored.headers.get('etag') !== null).toBe(status === 200);
        expect(rendered.headers.get('etag')).toBeNull();
        expect(stored.headers.get('cache-control')).toBe('private, no-cache');
        expect(rendered.headers.get('cache-control')).toBe('no-store');
        expect(stored.headers.get('vary')).toBe('Accept-Encoding, Accept-Language, Cookie');
      });
    }
  }

  test("the language is chosen as the pages choose it: the language cookie first, then Accept-Language", async () => {
    const chosen = await get('/terms', { cookie: 'swappoints_lang=en', 'accept-language': 'hi' });
    expect(await chosen.text()).toContain('<html lang="en"');
    const browserLanguage = await get('/terms', { cookie: 'other=1', 'accept-language': 'hi' });
    expect(await browserLanguage.text()).toContain('<html lang="hi"');
    // a language cookie with a broken %-encoding is no choice, on a stored page and a rendered one alike
    for (const path of ['/terms', '/terms?from=test']) {
      const broken = await get(path, { cookie: 'swappoints_lang=%E0%A4', 'accept-language': 'hi' });
      expect(broken.status).toBe(200);
      expect(await broken.text()).toContain('<html lang="hi"');
    }
  });

  test("exactly the page's inline scripts may run: each one's SHA-256 is in script-src, and nothing else is (no 'unsafe-inline')", async () => {
    for (const path of ['/email-signin', '/terms', '/no/such/page']) {
      const res = await get(path);
      const scripts = inlineScripts(await res.text());
      expect(scripts.length).toBeGreaterThan(1); // Waku's bootstrap and the RSC payload
      const allowed = scriptSrc(res).split(' ').slice(1);
      expect(allowed[0]).toBe("'self'");
      expect(allowed.slice(1).sort()).toEqual([...new Set(scripts.map(sha256))].sort());
      expect(scriptSrc(res)).not.toContain('unsafe-inline');
      // and the other security headers, as on every page
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-request-id')).toBeTruthy();
    }
  });

  test('each encoding has its copy and its ETag; an ETag asked again is a 304, HEAD has no body, a changed page is a new ETag', async () => {
    const identity = await get('/terms');
    const brotli = await fetch(`${app.server.url}/terms`, { headers: { 'accept-encoding': 'br' }, decompress: false } as RequestInit);
    const gzip = await fetch(`${app.server.url}/terms`, { headers: { 'accept-encoding': 'gzip' }, decompress: false } as RequestInit);
    expect(brotli.headers.get('content-encoding')).toBe('br');
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    const html = await identity.text();
    const brotliBytes = new Uint8Array(await brotli.arrayBuffer());
    expect(brotliBytes.byteLength).toBeLessThan(html.length / 3);
    expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await gzip.arrayBuffer())))).toBe(html);
    const etags = [identity, brotli, gzip].map((r) => r.headers.get('etag')!);
    expect(new Set(etags).size).toBe(3);

    const again = await fetch(`${app.server.url}/terms`, { headers: { 'accept-encoding': 'br', 'if-none-match': etags[1]! }, decompress: false } as RequestInit);
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etags[1]!);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
    // another language's copy does not match this ETag
    expect((await get('/terms', { 'accept-language': 'hi', 'if-none-match': etags[0]! })).status).toBe(200);

    const head = await fetch(`${app.server.url}/terms`, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(etags[0]!);
    expect(Number(head.headers.get('content-length'))).toBe(new TextEncoder().encode(html).byteLength);

    // the owner edits the terms: the next visitor reads the new text, under a new ETag
    appendFileSync(termsFile, '\n\nA clause added while the server runs.\n');
    const edited = await get('/terms', { 'if-none-match': etags[0]! });
    expect(edited.status).toBe(200);
    expect(await edited.text()).toContain('A clause added while the server runs.');
    expect(edited.headers.get('etag')).not.toBe(etags[0]!);
  });

  test('the brotli copy is made when a visitor first takes brotli: one who takes gzip too gets gzip meanwhile, then brotli', async () => {
    const takesBoth = { 'accept-encoding': 'gzip, br', 'accept-language': 'hi' };
    const ask = () => fetch(`${app.server.url}/privacy`, { headers: takesBoth, decompress: false } as RequestInit);
    const html = await (await get('/privacy', { 'accept-language': 'hi' })).text();
    const first = await ask();
    expect(first.headers.get('content-encoding')).toBe('gzip');
    expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await first.arrayBuffer())))).toBe(html);
    let later = await ask();
    for (let tries = 0; later.headers.get('content-encoding') !== 'br' && tries < 100; tries++) {
      await later.arrayBuffer();
      await Bun.sleep(50);
      later = await ask();
    }
    expect(later.headers.get('content-encoding')).toBe('br');
    expect(new TextDecoder().decode(brotliDecompressSync(new Uint8Array(await later.arrayBuffer())))).toBe(html);
  });

  test('built files are still files, and only a path no page answers is the not-found page', async () => {
    const favicon = await get('/favicon.svg');
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('content-type')).toContain('image/svg+xml');
    expect((await get('/verify-email')).status).toBe(200);
    // a page route with a value it does not know sends a signed-out visitor to sign in, as before
    expect((await get('/exchange/123')).status).toBe(307);
    expect((await get('/nope')).status).toBe(404);
  });

  test('a signed-in visitor gets their own page: /terms and the not-found page show their header and account', async () => {
    const token = await app.server.apiSignIn('asha.rao@example.com');
    for (const path of ['/terms', '/no/such/page']) {
      const res = await get(path, { cookie: `sp_session=${token}` });
      const html = await res.text();
      expect(res.headers.get('etag')).toBeNull();
      expect(scriptSrc(res)).toContain("'nonce-");
      expect(html).toContain('asha.rao@example.com');
      expect(html).toContain('href="/dashboard"');
      expect(pageContent(html).markup).not.toBe(pageContent(await (await get(path)).text()).markup);
    }
    // a signed-in visitor opening the sign-in page goes to their dashboard, as before
    expect((await get('/email-signin', { cookie: `sp_session=${token}` })).headers.get('location')).toBe('/dashboard');
  });

  test('a page opened with a query is rendered for it (/email-signin?next=/admin speaks to an admin)', async () => {
    const res = await get('/email-signin?next=/admin');
    expect(res.headers.get('etag')).toBeNull();
    expect(scriptSrc(res)).toContain("'nonce-");
    expect(await res.text()).toContain('Review trade-ins and assign store credit.');
  });

  test('in a browser the stored page runs its own scripts (React takes over) and nothing else: an injected script is refused', async () => {
    const context = await app.browser.newContext({ baseURL: app.server.url, locale: 'en-IN' });
    const page = await context.newPage();
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { violations: string[] }).violations = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const response = await page.goto('/terms');
    expect(response?.headers()['etag']).toBeTruthy();
    await hydrated(page);
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);

    // the same stored page with a script slipped into it (as a stored XSS would be): it does not run
    await page.route('**/privacy', async (route) => {
      const original = await route.fetch();
      const headers = { ...original.headers() };
      delete headers['content-encoding'];
      delete headers['content-length'];
      const body = (await original.text()).replace('</body>', '<script>window.injected = true</script></body>');
      await route.fulfill({ status: original.status(), headers, body });
    });
    await page.goto('/privacy');
    await hydrated(page);
    expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual(['script-src-elem inline']);
    await context.close();
  });
});
