import { describe, expect, test } from 'bun:test';
import { createEdge } from '#api/http/edge.ts';
import { createLogger } from '#api/lib/log.ts';

function edgeSeeing(trustProxy: boolean) {
  const seen: Request[] = [];
  const edge = createEdge({
    handleApp: (request) => {
      seen.push(request);
      return Response.json({ ok: true });
    },
    log: createLogger('silent'),
    dev: false,
    https: false,
    trustProxy,
  });
  const socket = { requestIP: () => ({ address: '192.0.2.10' }) };
  return { edge, seen, socket, page: async () => new Response('<p>page</p>', { headers: { 'content-type': 'text/html' } }) };
}

describe('the HTTP edge', () => {
  test("the client's address comes from the socket; a forged address header is replaced", async () => {
    const { edge, seen, socket, page } = edgeSeeing(false);
    await edge(new Request('http://localhost/api/x', { headers: { 'x-swappoints-client-ip': '203.0.113.1', 'x-forwarded-for': '203.0.113.2' } }), socket, page);
    expect(seen[0]!.headers.get('x-swappoints-client-ip')).toBe('192.0.2.10');
  });

  test('behind a trusted proxy (TRUST_PROXY) the first X-Forwarded-For address is the client', async () => {
    const { edge, seen, socket, page } = edgeSeeing(true);
    await edge(new Request('http://localhost/api/x', { headers: { 'x-forwarded-for': '203.0.113.2, 10.0.0.1' } }), socket, page);
    expect(seen[0]!.headers.get('x-swappoints-client-ip')).toBe('203.0.113.2');
  });

  test('/api, /image and /media go to the app; everything else is a page; both get the security headers', async () => {
    const { edge, seen, socket, page } = edgeSeeing(false);
    for (const path of ['/api/auth/profile', '/image/upload', '/media/abc.png']) {
      const res = await edge(new Request(`http://localhost${path}`), socket, page);
      expect(res.headers.get('content-type')).toContain('application/json');
    }
    expect(seen).toHaveLength(3);
    const html = await edge(new Request('http://localhost/apiary'), socket, page);
    expect(await html.text()).toBe('<p>page</p>');
    expect(html.headers.get('x-content-type-options')).toBe('nosniff');
    expect(html.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(html.headers.get('cache-control')).toBe('no-store');
  });

  test('a failure while rendering is a plain 500 without the stack', async () => {
    const { edge, socket } = edgeSeeing(false);
    const res = await edge(new Request('http://localhost/dashboard'), socket, async () => {
      throw new Error('secret internals at /srv/app.ts:12');
    });
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('secret');
  });
});
