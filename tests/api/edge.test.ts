import { describe, expect, test } from 'bun:test';
import { createEdge } from '#api/http/edge.ts';
import { createLogger } from '#api/lib/log.ts';
import { loadSettings } from '#api/settings.ts';

function edgeSeeing(trustProxy: number) {
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
    const { edge, seen, socket, page } = edgeSeeing(0);
    await edge(new Request('http://localhost/api/x', { headers: { 'x-swappoints-client-ip': '203.0.113.1', 'x-forwarded-for': '203.0.113.2' } }), socket, page);
    expect(seen[0]!.headers.get('x-swappoints-client-ip')).toBe('192.0.2.10');
  });

  test('behind TRUST_PROXY=N proxies the client is N entries from the right of X-Forwarded-For; what the client forged is ignored', async () => {
    const addressSeen = async (hops: number, forwardedFor?: string) => {
      const { edge, seen, socket, page } = edgeSeeing(hops);
      await edge(new Request('http://localhost/api/x', { headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} }), socket, page);
      return seen[0]!.headers.get('x-swappoints-client-ip');
    };
    // one proxy: it appended the address it saw (198.51.100.4) to whatever the client sent
    expect(await addressSeen(1, '203.0.113.66, 198.51.100.4')).toBe('198.51.100.4');
    expect(await addressSeen(1, '1.1.1.1,2.2.2.2, 198.51.100.4')).toBe('198.51.100.4');
    expect(await addressSeen(1, '198.51.100.4')).toBe('198.51.100.4');
    // two proxies: the CDN appended the client, the load balancer appended the CDN
    expect(await addressSeen(2, '203.0.113.66, 198.51.100.4, 10.0.0.2')).toBe('198.51.100.4');
    // no header: the socket's peer
    expect(await addressSeen(1)).toBe('192.0.2.10');
    // not behind a proxy: the header is ignored
    expect(await addressSeen(0, '203.0.113.66')).toBe('192.0.2.10');
  });

  test('TRUST_PROXY is a hop count; true is one proxy, false none; anything else stops start-up naming it', () => {
    const hops = (value: string) => loadSettings({ JWT_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/sp-edge-settings', TRUST_PROXY: value }).trustProxy;
    expect(hops('true')).toBe(1);
    expect(hops('false')).toBe(0);
    expect(hops('2')).toBe(2);
    expect(hops('0')).toBe(0);
    expect(() => hops('-1')).toThrow(/TRUST_PROXY/);
    expect(() => hops('maybe')).toThrow(/TRUST_PROXY/);
  });

  test('a chunked /api body is cut off at the 1 MB JSON limit while it is read, before the app sees it', async () => {
    const { edge, seen, socket, page } = edgeSeeing(0);
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        if (pulled > 32 * 1024 * 1024) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const request = new Request('http://localhost/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: endless });
    expect(request.headers.get('content-length')).toBeNull();
    const res = await edge(request, socket, page);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: 'The request body is too large (1 MB at most).' });
    expect(seen).toHaveLength(0);
    expect(pulled).toBeLessThan(2 * 1024 * 1024);

    const small = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"email":'));
        controller.enqueue(new TextEncoder().encode('"a@b.co"}'));
        controller.close();
      },
    });
    const ok = await edge(new Request('http://localhost/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: small }), socket, page);
    expect(ok.status).toBe(200);
    expect(await seen[0]!.json()).toEqual({ email: 'a@b.co' });
  });

  test('/api, /image and /media go to the app; everything else is a page; both get the security headers', async () => {
    const { edge, seen, socket, page } = edgeSeeing(0);
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

  test("a page's inline scripts run only with its nonce: script-src has no 'unsafe-inline', each <script> carries a fresh nonce per response", async () => {
    const { edge, socket } = edgeSeeing(0);
    const page = async () =>
      new Response('<html><head><script>self.boot=1</script></head><body><script type="module" src="/assets/a.js"></script><script id="_R_">x</script></body></html>', {
        headers: { 'content-type': 'text/html; charset=utf-8' },
      });
    const nonces: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const res = await edge(new Request('http://localhost/email-signin'), socket, page);
      const csp = res.headers.get('content-security-policy')!;
      const scriptSrc = csp.split('; ').find((d) => d.startsWith('script-src'))!;
      expect(scriptSrc).not.toContain('unsafe-inline');
      const nonce = /'nonce-([\w+/=]+)'/.exec(scriptSrc)![1]!;
      const tags = [...(await res.text()).matchAll(/<script[^>]*>/g)].map((m) => m[0]);
      expect(tags).toHaveLength(3);
      for (const tag of tags) expect(tag).toContain(`nonce="${nonce}"`);
      nonces.push(nonce);
    }
    expect(nonces[0]).not.toBe(nonces[1]);
    // answers that are not pages run no script at all
    const json = await edge(new Request('http://localhost/api/x'), socket, page);
    expect(json.headers.get('content-security-policy')).toContain("script-src 'self';");
  });

  test('a failure while rendering is a plain 500 without the stack', async () => {
    const { edge, socket } = edgeSeeing(0);
    const res = await edge(new Request('http://localhost/dashboard'), socket, async () => {
      throw new Error('secret internals at /srv/app.ts:12');
    });
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('secret');
  });
});
