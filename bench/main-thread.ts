/**
 * What runs on the browser's main thread while a page loads: Chromium's sampling profiler (CDP
 * `Profiler`) with Lighthouse's mobile CPU slowdown (4×), summed by script and by function.
 *
 *   bun run build && bun bench/main-thread.ts                       (every page)
 *   PAGES=/admin,/dashboard bun bench/main-thread.ts                (some)
 *
 * Starts the built server (demo shop with its sample requests), signs the customer and the admin in through the pages,
 * opens each page in a new tab and prints the main thread's busy time, the long tasks (> 50 ms,
 * what Total Blocking Time counts), and where the time went. A diagnostic, not a timed test: the
 * figures grow with the machine's load average, printed beside them.
 */
import type { BrowserContext } from 'playwright-core';
import { launchBrowser, signInThroughPages } from '#tests/helpers/browser.ts';
import { startServer, type RunningServer } from '#tests/helpers/server.ts';

const CUSTOMER = 'asha.rao@example.com';
const ADMIN = 'admin@swappoints.demo';
const ALL = ['/email-signin', '/verify-email', '/dashboard', '/exchange', '/exchange/new', '/exchange/{id}', '/admin', '/admin/exchange/{id}', '/admin/valuation', '/admin/webhooks'];

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

function summarise(profile: CpuProfile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const byScript = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)' || frame.functionName === '(program)') return;
    const ms = profile.timeDeltas[i]! / 1000;
    busy += ms;
    const script = frame.url.replace(/.*\/assets\//, '') || frame.functionName;
    byScript.set(script, (byScript.get(script) ?? 0) + ms);
    const fn = `${frame.functionName || '(anonymous)'} ${script}:${frame.lineNumber}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
  });
  const top = (m: Map<string, number>, n: number) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `  ${v.toFixed(0).padStart(6)} ms  ${k}`).join('\n');
  return { busy, scripts: top(byScript, 10), functions: top(byFunction, 10) };
}

async function profilePage(context: BrowserContext, path: string) {
  const page = await context.newPage();
  await page.addInitScript(() => {
    const tasks: number[] = [];
    (window as unknown as { __longTasks: number[] }).__longTasks = tasks;
    new PerformanceObserver((list) => list.getEntries().forEach((e) => tasks.push(e.duration))).observe({ type: 'longtask', buffered: true });
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await page.goto(path, { waitUntil: 'networkidle' });
  await page.waitForTimeout(1_000);
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
  const longTasks = await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks);
  await page.close();
  const blocking = longTasks.reduce((n, d) => n + Math.max(0, d - 50), 0);
  const { busy, scripts, functions } = summarise(profile);
  console.log(`\n== ${path} (landed on ${new URL(page.url()).pathname}): main thread busy ${busy.toFixed(0)} ms; ${longTasks.length} long tasks, ${blocking.toFixed(0)} ms over 50 ms`);
  console.log(` by script:\n${scripts}\n by function:\n${functions}`);
}

async function signedIn(server: RunningServer, email: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 412, height: 823 }, locale: 'en-IN' });
  const page = await context.newPage();
  await signInThroughPages(page, server, email);
  await page.waitForURL(/\/(dashboard|admin)$/);
  await page.close();
  return context;
}

const [server, browser] = await Promise.all([startServer({ DEMO_REQUESTS: 'true' }), launchBrowser()]);
try {
  const token = await server.apiSignIn(CUSTOMER);
  const requests = (await server.api<{ id: string; images: unknown[] }[]>('GET', '/api/exchange', token)).body;
  const id = (requests.find((r) => r.images.length > 0) ?? requests[0])?.id;
  const paths = (process.env.PAGES ? process.env.PAGES.split(',') : ALL).map((p) => p.replace('{id}', id ?? 'none'));
  console.log(`load average ${(await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ')}, CPU slowed 4×`);
  const guest = await browser.newContext({ baseURL: server.url, viewport: { width: 412, height: 823 }, locale: 'en-IN' });
  const customer = await signedIn(server, CUSTOMER);
  const admin = await signedIn(server, ADMIN);
  for (const path of paths) {
    const context = path.startsWith('/admin') ? admin : path === '/email-signin' || path === '/verify-email' ? guest : customer;
    await profilePage(context, path);
  }
} finally {
  await browser.close();
  await server.stop();
}
