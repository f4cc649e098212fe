/**
 * The ceiling of a page render inside the server: each page rendered by the built server's own
 * handler in this process (the edge, the session check, the in-process API and the embedded
 * database, Waku's RSC render and its SSR) with no HTTP and no other client, one request after
 * another: the way `bench:pages` measures its floors. Beside it, the same with brotli, and the
 * page's floor (its data-bound tree rendered by `react-dom/server` from the same data), as renders per
 * second of the main thread's CPU time like the server's column. Sign-in, terms, privacy and the
 * not-found page are asked for signed out, so the edge answers them from memory (static-pages.ts);
 * the not-found page is asked for signed in too, where it is rendered: no data of its own, the least
 * any signed-in page costs (set beside the not-found floor).
 *
 *   bun run build && bun run bench:pipeline          (SWAPPOINTS_DIST_DIR=dist-x picks another build;
 *                                                      PIPELINE_PAGES=dashboard,admin only those pages,
 *                                                      PIPELINE_MS=8000 longer runs, e.g. under --cpu-prof)
 *
 * What a page served over HTTP can reach is at most this column; when it is already under half the
 * floor, no work outside the render (HTTP, concurrency, compression) can bring the page to half.
 * Results also go to bench/.results/pipeline.json.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installHost, startHost } from '#api/host.ts';
import { createLogger } from '#api/lib/log.ts';
import { isDatabaseEmpty, seedDemo } from '#api/modules/demo/service.ts';
import { loadSettings } from '#api/settings.ts';
import { legalMarkdown } from '#src/lib/legal.server.ts';
import { ROOT } from '#tests/helpers/cli.ts';

process.env.NODE_ENV = 'production';
process.env.WAKU_CONFIG_BASE_PATH ??= '/';
const { floorThroughput, mainThreadCpuMs, readFloorData } = await import('./page-floors.tsx');

const ORIGIN = 'http://localhost:3000';
const CUSTOMER = 'asha.rao@example.com';
const ADMIN = 'admin@swappoints.demo';
const RUN_MS = Number(process.env.PIPELINE_MS ?? 2_000);
/** PIPELINE_PAGES=dashboard,admin renders only those pages (e.g. under `bun --cpu-prof`) */
const ONLY = process.env.PIPELINE_PAGES?.split(',');

type Fetch = (request: Request) => Promise<Response>;
/** a page as the bench asks for it: signed in when it has a cookie; the not-found page answers 404 */
interface Page {
  name: string;
  path: string;
  cookie?: string;
  status?: number;
  /** the floor it is set beside, when not its own name's */
  floor?: string;
}

async function signIn(fetchPage: Fetch, db: Awaited<ReturnType<typeof startHost>>['ctx']['db'], email: string): Promise<string> {
  const post = (path: string, body: unknown) =>
    fetchPage(new Request(`${ORIGIN}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ORIGIN }, body: JSON.stringify(body) }));
  const login = await post('/api/auth/login', { email });
  if (login.status !== 202) throw new Error(`login for ${email}: ${login.status}`);
  const mail = await db.selectFrom('mail_outbox').select('link').where('to_email', '=', email).orderBy('id', 'desc').executeTakeFirstOrThrow();
  const token = new URL(mail.link!).searchParams.get('token');
  const verified = (await (await post('/api/auth/verify-email', { email, token })).json()) as { sessionToken?: string };
  if (!verified.sessionToken) throw new Error(`verify for ${email} failed`);
  return `sp_session=${verified.sessionToken}`;
}


/**
 * `path` rendered one request after another for RUN_MS, its body read to the end: renders a second
 * of wall time, and of the main thread's CPU time (waits do not count there: that is the most a
 * single server process could serve with any number of clients).
 */
async function renderRates(fetchPage: Fetch, page: Page, encoding: string | undefined): Promise<{ wall: number; cpu: number }> {
  const { path, cookie, status = 200 } = page;
  const headers: Record<string, string> = { ...(cookie ? { cookie } : {}), ...(encoding ? { 'accept-encoding': encoding } : {}) };
  const once = async () => {
    const res = await fetchPage(new Request(`${ORIGIN}${path}`, { headers }));
    await res.arrayBuffer();
    if (res.status !== status) throw new Error(`${path} answered ${res.status}`);
  };
  for (let i = 0; i < 30; i++) await once();
  let done = 0;
  const t0 = performance.now();
  const cpu0 = mainThreadCpuMs();
  while (performance.now() - t0 < RUN_MS) {
    await once();
    done += 1;
  }
  const wallMs = performance.now() - t0;
  const cpuMs = mainThreadCpuMs() - cpu0;
  return { wall: Math.round(done / (wallMs / 1000)), cpu: Math.round(done / (cpuMs / 1000)) };
}

async function main() {
  const dist = process.env.SWAPPOINTS_DIST_DIR ?? 'dist';
  const entryPath = join(ROOT, dist, 'server/index.js');
  if (!existsSync(entryPath)) {
    console.error(`No build in ${dist}/: run \`bun run build\` first.`);
    process.exit(2);
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'swappoints-pipeline-'));
  const settings = loadSettings({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: undefined, PUBLIC_URL: ORIGIN, LOG_LEVEL: 'warn', DEMO_SEED: 'true', DEMO_REQUESTS: 'false' });
  const host = await startHost(settings, {
    log: createLogger('warn'),
    background: false,
    onReady: async (ctx) => {
      if (await isDatabaseEmpty(ctx)) await seedDemo(ctx);
    },
  });
  installHost(host);
  try {
    const { unstable_serverEntry: entry } = (await import(entryPath)) as { unstable_serverEntry: { fetch: (r: Request) => Promise<Response> } };
    const fetchPage: Fetch = (request) => entry.fetch(request);
    const [customer, admin] = [await signIn(fetchPage, host.ctx.db, CUSTOMER), await signIn(fetchPage, host.ctx.db, ADMIN)];
    const api = async <T>(method: string, path: string, cookie: string, body?: unknown): Promise<T> => {
      const res = await fetchPage(new Request(`${ORIGIN}${path}`, { method, headers: { cookie, origin: ORIGIN, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }));
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    };
    const form = new FormData();
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYPgPAAEDAQAIicLsAAAAAElFTkSuQmCC', 'base64');
    form.append('file', new File([png], 'photo.png', { type: 'image/png' }));
    const upload = (await (await fetchPage(new Request(`${ORIGIN}/image/upload`, { method: 'POST', headers: { cookie: customer, origin: ORIGIN }, body: form }))).json()) as {
      secure_url: string;
      public_id: string;
    };
    await api('POST', '/api/exchange', customer, {
      productName: 'Bench Toner',
      brand: 'Brother',
      description: 'For the pipeline benchmark.',
      condition: 'good',
      images: [{ url: upload.secure_url, publicId: upload.public_id }],
    });
    const requests = await api<{ id: string }[]>('GET', '/api/exchange', customer);
    const id = requests[0]!.id;
    const floorData = {
      ...(await readFloorData((path, as) => api('GET', path, as === 'admin' ? admin : customer), CUSTOMER, id)),
      legal: { terms: legalMarkdown(settings, 'terms'), privacy: legalMarkdown(settings, 'privacy') },
    };

    // the first four are served from memory to a signed-out visitor (api/http/static-pages.ts)
    const pages: Page[] = [
      { name: 'sign-in', path: '/email-signin' },
      { name: 'terms', path: '/terms' },
      { name: 'privacy', path: '/privacy' },
      { name: 'not found', path: '/no-such-page', status: 404 },
      { name: 'dashboard', path: '/dashboard', cookie: customer },
      { name: 'my requests', path: '/exchange', cookie: customer },
      { name: 'request detail', path: `/exchange/${id}`, cookie: customer },
      { name: 'admin', path: '/admin', cookie: admin },
      { name: 'admin detail', path: `/admin/exchange/${id}`, cookie: admin },
      // rendered, not from memory: the session check, the layout and the pipeline, with no data of its own
      { name: 'signed-in 404', path: '/no-such-page', cookie: customer, status: 404, floor: 'not found' },
    ];
    const results = [];
    // two pages share the not-found floor: each floor is measured once (about 2 s)
    const floors = new Map<string, number>();
    const floorOf = async (name: string): Promise<number> => {
      let floor = floors.get(name);
      if (floor === undefined) {
        floor = (await floorThroughput(name, floorData))!.cpuRps;
        floors.set(name, floor);
      }
      return floor;
    };
    for (const page of pages) {
      if (ONLY && !ONLY.includes(page.name)) continue;
      const floor = await floorOf(page.floor ?? page.name);
      const plain = await renderRates(fetchPage, page, undefined);
      const brotli = await renderRates(fetchPage, page, 'br');
      results.push({ page: page.name, path: page.path, floor, plain, brotli });
    }
    const load = (await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ');
    console.log(`\nIn-process renders a second, one request after another (${dist}/, embedded database); load average ${load}`);
    console.log('wall: of wall time; cpu: of the main thread\'s CPU time (the most one server process could serve)\n');
    const share = (n: number, floor: number) => (n / floor).toFixed(2).padStart(5);
    console.log(['page'.padEnd(16), 'floor cpu'.padStart(9), 'wall'.padStart(6), 'cpu'.padStart(6), 'share'.padStart(5), 'br wall'.padStart(7), 'br cpu'.padStart(6), 'share'.padStart(5)].join('  '));
    for (const r of results) {
      console.log(
        [
          r.page.padEnd(16),
          String(r.floor).padStart(9),
          String(r.plain.wall).padStart(6),
          String(r.plain.cpu).padStart(6),
          share(r.plain.cpu, r.floor),
          String(r.brotli.wall).padStart(7),
          String(r.brotli.cpu).padStart(6),
          share(r.brotli.cpu, r.floor),
        ].join('  '),
      );
    }
    mkdirSync(join(ROOT, 'bench/.results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench/.results/pipeline.json'), `${JSON.stringify({ dist, at: new Date().toISOString(), loadAverage: load, results }, null, 2)}\n`);
  } finally {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
