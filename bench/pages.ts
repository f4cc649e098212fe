/**
 * Page weight: how much JavaScript (gzip-compressed) each page makes the browser load.
 *
 *   bun run build && bun run bench:pages          (SWAPPOINTS_DIST_DIR=dist-x picks another build)
 *
 * Builds nothing: it starts the built server (a data directory of its own, the demo shop), signs
 * a customer and the admin in, opens each page in a fresh Chromium context (empty cache), and
 * sums the scripts it fetched. Sizes are gzip level 9 of each script's bytes, as a server or CDN
 * would send them. Target: under 150 KB per page. Results also go to bench/.results/pages.json.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser, signInThroughPages } from '#tests/helpers/browser.ts';
import { ROOT } from '#tests/helpers/cli.ts';
import { startServer, type RunningServer } from '#tests/helpers/server.ts';

const TARGET_KB = 150;
const CUSTOMER = 'asha.rao@example.com';
const ADMIN = 'admin@swappoints.demo';

interface PageWeight {
  page: string;
  path: string;
  scripts: number;
  rawKB: number;
  gzipKB: number;
  htmlGzipKB: number;
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

type Storage = Awaited<ReturnType<BrowserContext['storageState']>>;

/** A signed-in browser state (the session cookie), taken once and reused by each fresh context. */
async function signedInState(browser: Browser, server: RunningServer, email: string): Promise<Storage> {
  const context = await browser.newContext({ baseURL: server.url, locale: 'en-IN' });
  const page = await context.newPage();
  await signInThroughPages(page, server, email);
  await page.waitForURL('**/dashboard');
  const state = await context.storageState();
  await context.close();
  return state;
}

async function measure(browser: Browser, server: RunningServer, name: string, path: string, storageState?: Storage): Promise<PageWeight> {
  const context = await browser.newContext({ baseURL: server.url, locale: 'en-IN', storageState });
  const page = await context.newPage();
  const scripts = new Map<string, Promise<Buffer | null>>();
  let html: Promise<Buffer | null> = Promise.resolve(null);
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (type === 'script') scripts.set(response.url(), response.body().catch(() => null));
    if (type === 'document') html = response.body().catch(() => null);
  });
  const response = await page.goto(path, { waitUntil: 'networkidle' });
  if (!response?.ok()) throw new Error(`${path} answered ${response?.status()} (expected the page)`);
  const finalPath = new URL(page.url()).pathname;
  if (finalPath !== new URL(path, server.url).pathname) throw new Error(`${path} went to ${finalPath}: not signed in as expected?`);
  const bodies = (await Promise.all(scripts.values())).filter((b): b is Buffer => b !== null);
  const document = await html;
  await context.close();
  if (process.env.BENCH_VERBOSE) {
    const sizes = await Promise.all([...scripts].map(async ([url, body]) => [new URL(url).pathname, (await body)?.byteLength ?? 0] as const));
    console.log(`${name}: ${sizes.map(([p, n]) => `${p.replace('/assets/', '')} ${kb(n)}`).join(', ')}`);
  }
  return {
    page: name,
    path,
    scripts: bodies.length,
    rawKB: kb(bodies.reduce((n, b) => n + b.byteLength, 0)),
    gzipKB: kb(bodies.reduce((n, b) => n + Bun.gzipSync(new Uint8Array(b), { level: 9 }).byteLength, 0)),
    htmlGzipKB: document ? kb(Bun.gzipSync(new Uint8Array(document), { level: 9 }).byteLength) : 0,
  };
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
    for (const [name, path, state] of pages) results.push(await measure(browser, server, name, path, state));

    console.log(`\nJavaScript per page (${dist}/), gzip level 9; target < ${TARGET_KB} KB\n`);
    console.log(['page'.padEnd(16), 'scripts'.padStart(7), 'raw KB'.padStart(9), 'gzip KB'.padStart(9), 'html gz KB'.padStart(11), ''].join('  '));
    for (const r of results) {
      const verdict = r.gzipKB < TARGET_KB ? 'ok' : 'OVER';
      console.log([r.page.padEnd(16), String(r.scripts).padStart(7), r.rawKB.toFixed(1).padStart(9), r.gzipKB.toFixed(1).padStart(9), r.htmlGzipKB.toFixed(1).padStart(11), verdict].join('  '));
    }
    mkdirSync(join(ROOT, 'bench/.results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench/.results/pages.json'), `${JSON.stringify({ dist, targetKB: TARGET_KB, at: new Date().toISOString(), results }, null, 2)}\n`);
    if (results.some((r) => r.gzipKB >= TARGET_KB)) process.exitCode = 1;
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
