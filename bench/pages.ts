/**
 * Page weight and server cost: what each page makes the browser load, as transferred
 * (compressed, as the server sends it), and how fast the server renders it.
 *
 *   bun run build && bun run bench:pages          (SWAPPOINTS_DIST_DIR=dist-x picks another build)
 *
 * Builds nothing: it starts the built server (a data directory of its own, the demo shop), signs
 * a customer and the admin in, opens each page in a fresh Chromium context (empty cache), and
 * sums what it fetched as transferred (Chromium's encoded sizes). Then it times each page over
 * HTTP (brotli accepted): ms per page one at a time, and req/s with 16 clients, with the API the
 * request page reads beside it. Target: under 150 KB of JavaScript per page, as transferred.
 * Results also go to bench/.results/pages.json.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Request } from 'playwright-core';
import { launchBrowser, signInThroughPages } from '#tests/helpers/browser.ts';
import { ROOT } from '#tests/helpers/cli.ts';
import { startServer, type RunningServer } from '#tests/helpers/server.ts';

// The floor renders with React's production build, and Waku's <Link> outside Waku needs its base path.
process.env.NODE_ENV = 'production';
process.env.WAKU_CONFIG_BASE_PATH ??= '/';
const { floorThroughput, readFloorData } = await import('./page-floors.tsx');

const TARGET_KB = 150;
/** each page serves at least this share of its floor's throughput (renders a second of its tree by react-dom/server) */
const FLOOR_SHARE = 0.5;
const CUSTOMER = 'asha.rao@example.com';
const ADMIN = 'admin@swappoints.demo';

interface PageWeight {
  page: string;
  path: string;
  requests: number;
  scripts: number;
  /** JavaScript as transferred (brotli from the build's precompressed copies) */
  scriptKB: number;
  htmlKB: number;
  /** everything the page loaded, bodies as transferred plus headers */
  totalKB: number;
  ms?: number;
  rps?: number;
  /** renders a second of the page's data-bound tree by react-dom/server, from data fetched once */
  floorRps?: number;
}

const belowFloor = (r: PageWeight) => r.floorRps !== undefined && r.rps! < FLOOR_SHARE * r.floorRps;

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

type Storage = Awaited<ReturnType<BrowserContext['storageState']>>;

/** A signed-in browser state (the session cookie), taken once and reused by each fresh context. */
async function signedInState(browser: Browser, server: RunningServer, email: string): Promise<Storage> {
  const context = await browser.newContext({ baseURL: server.url, locale: 'en-IN' });
  const page = await context.newPage();
  await signInThroughPages(page, server, email);
  await page.waitForURL(/\/(dashboard|admin)$/);
  const state = await context.storageState();
  await context.close();
  return state;
}

async function measure(browser: Browser, server: RunningServer, name: string, path: string, storageState?: Storage): Promise<PageWeight> {
  const context = await browser.newContext({ baseURL: server.url, locale: 'en-IN', storageState });
  const page = await context.newPage();
  const requests: Request[] = [];
  page.on('requestfinished', (request) => requests.push(request));
  const response = await page.goto(path, { waitUntil: 'networkidle' });
  if (!response?.ok()) throw new Error(`${path} answered ${response?.status()} (expected the page)`);
  const finalPath = new URL(page.url()).pathname;
  if (finalPath !== new URL(path, server.url).pathname) throw new Error(`${path} went to ${finalPath}: not signed in as expected?`);
  // Sizes as they came over the wire: compressed bodies (as the server sent them) plus headers.
  const sized = await Promise.all(requests.map(async (r) => ({ type: r.resourceType(), url: r.url(), ...(await r.sizes()) })));
  await context.close();
  const scripts = sized.filter((r) => r.type === 'script');
  const document = sized.find((r) => r.type === 'document');
  if (process.env.BENCH_VERBOSE) console.log(`${name}: ${sized.map((r) => `${new URL(r.url).pathname.replace('/assets/', '')} ${kb(r.responseBodySize)}`).join(', ')}`);
  return {
    page: name,
    path,
    requests: sized.length,
    scripts: scripts.length,
    scriptKB: kb(scripts.reduce((n, r) => n + r.responseBodySize, 0)),
    htmlKB: document ? kb(document.responseBodySize) : 0,
    totalKB: kb(sized.reduce((n, r) => n + r.responseBodySize + r.responseHeadersSize, 0)),
  };
}

/** Server-side cost of a page, over HTTP as a browser asks for it (brotli accepted): ms at concurrency 1 and req/s with 16 clients. */
async function throughput(server: RunningServer, path: string, cookie: string | undefined): Promise<{ ms: number; rps: number }> {
  const headers = { 'accept-encoding': 'br', ...(cookie ? { cookie } : {}) };
  const once = async () => {
    const res = await fetch(`${server.url}${path}`, { headers, redirect: 'manual', decompress: false } as RequestInit);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
  };
  for (let i = 0; i < 20; i++) await once(); // warm up
  const sequential = 50;
  const t0 = performance.now();
  for (let i = 0; i < sequential; i++) await once();
  const ms = (performance.now() - t0) / sequential;
  let done = 0;
  const until = performance.now() + 3_000;
  const t1 = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (performance.now() < until) {
        await once();
        done += 1;
      }
    }),
  );
  return { ms: Math.round(ms * 100) / 100, rps: Math.round(done / ((performance.now() - t1) / 1000)) };
}

async function main() {
  const dist = process.env.SWAPPOINTS_DIST_DIR ?? 'dist';
  if (!existsSync(join(ROOT, dist, 'server/index.js'))) {
    console.error(`No build in ${dist}/: run \`bun run build\` first (SWAPPOINTS_DIST_DIR=${dist} for this folder).`);
    process.exit(2);
  }
  const [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  try {
    const [customer, admin] = await Promise.all([signedInState(browser, server, CUSTOMER), signedInState(browser, server, ADMIN)]);
    const token = await server.apiSignIn(CUSTOMER);
    let requests = (await server.api<{ id: string }[]>('GET', '/api/exchange', token)).body;
    if (requests.length === 0) {
      const form = new FormData();
      const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYPgPAAEDAQAIicLsAAAAAElFTkSuQmCC', 'base64');
      form.append('file', new File([png], 'photo.png', { type: 'image/png' }));
      const upload = (await (await fetch(`${server.url}/image/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })).json()) as {
        secure_url: string;
        public_id: string;
      };
      await server.api('POST', '/api/exchange', token, {
        productName: 'Bench Toner',
        brand: 'Brother',
        description: 'For the page-weight benchmark.',
        condition: 'good',
        images: [{ url: upload.secure_url, publicId: upload.public_id }],
      });
      requests = (await server.api<{ id: string }[]>('GET', '/api/exchange', token)).body;
    }
    const id = requests[0]!.id;
    const adminToken = await server.apiSignIn(ADMIN);
    const body = async <T>(path: string, as: string) => {
      const res = await server.api<T>('GET', path, as);
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
      return res.body;
    };
    const floorData = await readFloorData((path, as) => body(path, as === 'admin' ? adminToken : token), CUSTOMER, id);

    const pages: [string, string, Storage | undefined][] = [
      ['sign-in', '/email-signin', undefined],
      ['dashboard', '/dashboard', customer],
      ['my requests', '/exchange', customer],
      ['new request', '/exchange/new', customer],
      ['request detail', `/exchange/${id}`, customer],
      ['admin', '/admin', admin],
      ['admin detail', `/admin/exchange/${id}`, admin],
    ];
    const results: PageWeight[] = [];
    const cookieOf = (state: Storage | undefined) => state?.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    for (const [name, path, state] of pages) {
      const weight = await measure(browser, server, name, path, state);
      results.push({ ...weight, ...(await throughput(server, path, cookieOf(state))), floorRps: (await floorThroughput(name, floorData))?.rps });
    }
    const api = await throughput(server, `/api/exchange/${id}`, cookieOf(customer));
    const load = (await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ');

    console.log(`\nPer page (${dist}/), sizes as transferred (compressed); JavaScript target < ${TARGET_KB} KB; page req/s >= ${FLOOR_SHARE} x floor; load average ${load}\n`);
    console.log(['page'.padEnd(16), 'requests'.padStart(8), 'scripts'.padStart(7), 'JS KB'.padStart(7), 'HTML KB'.padStart(7), 'total KB'.padStart(8), 'ms (c=1)'.padStart(8), 'req/s (c=16)'.padStart(12), 'floor r/s'.padStart(9), 'share'.padStart(5), ''].join('  '));
    for (const r of results) {
      const verdict = r.scriptKB < TARGET_KB && !belowFloor(r) ? 'ok' : 'MISSED';
      console.log(
        [r.page.padEnd(16), String(r.requests).padStart(8), String(r.scripts).padStart(7), r.scriptKB.toFixed(1).padStart(7), r.htmlKB.toFixed(1).padStart(7), r.totalKB.toFixed(1).padStart(8), r.ms!.toFixed(2).padStart(8), String(r.rps).padStart(12), String(r.floorRps ?? '-').padStart(9), (r.floorRps ? (r.rps! / r.floorRps).toFixed(2) : '-').padStart(5), verdict].join('  '),
      );
    }
    console.log(`\nbeside it, the API the request page reads (GET /api/exchange/{id}): ${api.ms.toFixed(2)} ms at c=1, ${api.rps} req/s with 16 clients`);
    mkdirSync(join(ROOT, 'bench/.results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench/.results/pages.json'), `${JSON.stringify({ dist, targetKB: TARGET_KB, at: new Date().toISOString(), loadAverage: load, results, api }, null, 2)}\n`);
    if (results.some((r) => r.scriptKB >= TARGET_KB || belowFloor(r))) process.exitCode = 1;
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
