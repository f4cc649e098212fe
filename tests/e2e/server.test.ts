import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { librariesLoadedAtFirstUseIn, serverModulesIn, startServer, type RunningServer } from '#tests/helpers/server.ts';
import { expectDemoLoadedBeside } from './first-start-helpers.ts';

let server: RunningServer;
beforeAll(async () => {
  // a first start, as an operator's: the server creates and migrates its embedded database itself
  // (other test servers start on a copy of a migrated one), with the demo's sample requests; the
  // info lines say who loaded them
  server = await startServer({ DEMO_REQUESTS: 'true', LOG_LEVEL: 'info' }, { firstStart: true, observeModules: true });
}, 120_000);
afterAll(() => server?.stop(), 30_000);

const expectSecurityHeaders = (res: Response) => {
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('same-origin');
  expect(res.headers.get('x-request-id')).toMatch(/^[\w.-]+$/);
};

describe('one process, one port', () => {
  test('pages, the API, its OpenAPI document and static assets are served together, each with the security headers', async () => {
    const page = await fetch(`${server.url}/email-signin`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expectSecurityHeaders(page);
    const html = await page.text();

    const api = await fetch(`${server.url}/api/auth/profile`);
    expect(api.status).toBe(401);
    expect(await api.json()).toEqual({ error: 'Please sign in to continue.' });
    expectSecurityHeaders(api);

    const docs = await fetch(`${server.url}/api/docs/json`);
    expect(docs.status).toBe(200);
    const spec = (await docs.json()) as { paths: Record<string, unknown> };
    expect(Object.keys(spec.paths)).toContain('/api/auth/login');
    expectSecurityHeaders(docs);

    const asset = html.match(/\/assets\/[\w.-]+\.js/)?.[0];
    expect(asset).toBeDefined();
    const script = await fetch(`${server.url}${asset}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toContain('immutable');
    expectSecurityHeaders(script);
  });

  test('an unknown API path is JSON 404, an unknown page is the HTML 404', async () => {
    const api = await fetch(`${server.url}/api/nope`);
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ error: 'No such endpoint: GET /api/nope' });
    const page = await fetch(`${server.url}/nope`);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('Page Not Found');
  });

  test('a request id given by a proxy is kept; a malformed one is replaced', async () => {
    const kept = await fetch(`${server.url}/api/auth/profile`, { headers: { 'x-request-id': 'lb-1234' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-1234');
    const replaced = await fetch(`${server.url}/api/auth/profile`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(replaced.headers.get('x-request-id')).not.toBe('bad id with spaces');
  });

  test('malformed JSON and oversized bodies get clear errors, never a 500', async () => {
    const bad = await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBeString();
    const huge = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual({ error: 'The request body is too large (1 MB at most).' });
  });
});

describe('a first start', () => {
  test('the demo shop (photos included) is loaded by another process; the server holds neither its code nor the libraries loaded at first use (bench:memory)', async () => {
    await expectDemoLoadedBeside(server);
  });
});

describe('the ready line', () => {
  test('names PUBLIC_URL, the address people use, when it is set (not localhost), with the port it listens on', async () => {
    const behindProxy = await startServer({ PUBLIC_URL: 'http://swap.shop.example:8080' }, { observeModules: true });
    try {
      const port = new URL(behindProxy.url).port;
      expect(behindProxy.log()).toContain(`SwapPoints is ready on http://swap.shop.example:8080 (listening on port ${port}, `);
      expect(server.log()).toContain(`SwapPoints is ready on ${server.url} (listening on port ${new URL(server.url).port}, `);
      // a start on a database that exists (the demo loaded by the server itself) loads none of the
      // libraries loaded at first use (bench:memory; a first start: above)
      const modules = await behindProxy.loadedModules();
      expect(serverModulesIn(modules)).toHaveLength(2);
      expect(librariesLoadedAtFirstUseIn(modules)).toEqual([]);
      expect(modules.filter((m) => m.includes('/node_modules/pino/'))).toEqual([]); // readable log lines, the default, need no pino
    } finally {
      await behindProxy.stop();
    }
  }, 120_000);
});
