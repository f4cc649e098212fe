/**
 * Two or more checkouts' built servers side by side: the data pages each serves per second of its
 * process's CPU, over HTTP, one request after another, as `swappoints serve` runs. It talks to each
 * server only as a client does (the sign-in API, `swappoints mail list --json` for the link, the
 * request APIs for an id), so an older commit is measured as it was, without this bench's modules.
 *
 *   git worktree add /tmp/old 24d7fa2 && (cd /tmp/old && bun install && bun run build)
 *   bun run build && bun run bench:compare /tmp/old        (this checkout is compared to the first)
 *
 * Each server gets a data directory of its own with the demo shop and its requests, on ports from
 * 3991 (old builds cannot report a port 0 gave them). Per page: 30 requests to warm it, then
 * COMPARE_REQUESTS (150) timed; three rounds alternating the servers, medians. `main`: the process's
 * main thread only (where rendering happens); `all`: every thread (the embedded database's I/O and
 * the garbage collector included). Results also go to bench/.results/compare-builds.json.
 *
 * The last row, a signed-in visitor's not-found page, has no data of its own: the session check,
 * the layout and the RSC-and-HTML pipeline alone. It is the least any signed-in page costs, the
 * floor the data pages' rows stand on.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT } from '#tests/helpers/cli.ts';
import { cpuMsFromStat } from './process-cpu.ts';

const CUSTOMER = 'asha.rao@example.com';
const ADMIN = 'admin@swappoints.demo';
const REQUESTS = Number(process.env.COMPARE_REQUESTS ?? 150);
const ROUNDS = 3;
const FIRST_PORT = 3991;

interface Server {
  root: string;
  url: string;
  pid: number;
  env: Record<string, string>;
  stop(): void;
}

async function startServer(root: string, port: number): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), 'swappoints-compare-'));
  const env: Record<string, string> = { ...(process.env as Record<string, string>), DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: `http://localhost:${port}`, LOG_LEVEL: 'warn', DEMO_SEED: 'true', DEMO_REQUESTS: 'true', SIGNIN_LIMIT_PER_IP: '1000', SIGNIN_LIMIT_PER_EMAIL: '1000' };
  delete env.DATABASE_URL;
  const proc = Bun.spawn(['bun', join(root, 'cli/index.ts'), 'serve'], { cwd: root, env, stdout: 'ignore', stderr: 'pipe' });
  const stop = () => {
    proc.kill('SIGTERM');
    void proc.exited.then(() => rmSync(dataDir, { recursive: true, force: true }));
  };
  let output = '';
  const decoder = new TextDecoder();
  const reader = proc.stderr.getReader();
  while (!output.includes('is ready on')) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${root}: the server exited before it was ready:\n${output}`);
    output += decoder.decode(value);
  }
  void (async () => {
    while (!(await reader.read()).done); // keep its stderr drained
  })();
  return { root, url: `http://localhost:${port}`, pid: proc.pid, env, stop };
}

async function signInLink(server: Server, email: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const proc = Bun.spawn(['bun', join(server.root, 'cli/index.ts'), 'mail', 'list', '--json'], { cwd: server.root, env: server.env, stdout: 'pipe' });
    const mails = JSON.parse(await new Response(proc.stdout).text()) as { to: string; kind: string; link: string | null }[];
    const link = mails.find((m) => m.to === email && m.kind === 'sign_in' && m.link)?.link;
    if (link) return link;
    await Bun.sleep(100);
  }
  throw new Error(`${server.root}: no sign-in link for ${email}`);
}

/** The session cookie, signed in through the API as the sign-in pages do. */
async function cookieFor(server: Server, email: string): Promise<string> {
  const post = (path: string, body: unknown) => fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.url }, body: JSON.stringify(body) });
  const login = await post('/api/auth/login', { email });
  if (login.status !== 202) throw new Error(`${server.root}: login for ${email} answered ${login.status}`);
  const token = new URL(await signInLink(server, email)).searchParams.get('token');
  const verified = await post('/api/auth/verify-email', { email, token });
  const cookie = verified.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  if (!cookie) throw new Error(`${server.root}: verify for ${email} answered ${verified.status} without a cookie`);
  return cookie;
}

/** The first request id in a list answer, whatever the version calls its array. */
async function firstId(server: Server, path: string, cookie: string): Promise<string> {
  const body = (await (await fetch(`${server.url}${path}`, { headers: { cookie } })).json()) as unknown;
  const list = Array.isArray(body) ? body : Object.values(body as object).find(Array.isArray);
  const id = (list as { id?: string }[] | undefined)?.[0]?.id;
  if (!id) throw new Error(`${server.root}: ${path} listed no request`);
  return id;
}

interface Page {
  name: string;
  path: string;
  cookie: string;
  /** the status the page answers: 200 but for the not-found page */
  status?: number;
}

async function pagesOf(server: Server): Promise<Page[]> {
  const [customer, admin] = [await cookieFor(server, CUSTOMER), await cookieFor(server, ADMIN)];
  const customerRequest = await firstId(server, '/api/exchange', customer);
  const anyRequest = await firstId(server, '/api/admin/exchange-requests', admin);
  return [
    { name: 'dashboard', path: '/dashboard', cookie: customer },
    { name: 'exchange list', path: '/exchange', cookie: customer },
    { name: 'exchange detail', path: `/exchange/${customerRequest}`, cookie: customer },
    { name: 'new exchange', path: '/exchange/new', cookie: customer },
    { name: 'admin list', path: '/admin', cookie: admin },
    { name: 'admin detail', path: `/admin/exchange/${anyRequest}`, cookie: admin },
    { name: 'admin valuation', path: '/admin/valuation', cookie: admin },
    { name: 'signed-in 404', path: '/no-such-page', cookie: customer, status: 404 },
  ];
}

/** CPU milliseconds of a process (every thread) or of its main thread, from /proc. */
const cpuMs = (pid: number, mainThreadOnly: boolean) => cpuMsFromStat(mainThreadOnly ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`);

async function rates(server: Server, { path, cookie, status = 200 }: Page): Promise<{ main: number; all: number }> {
  const once = async () => {
    const res = await fetch(`${server.url}${path}`, { headers: { cookie, 'accept-language': 'en-IN' } });
    await res.arrayBuffer();
    if (res.status !== status) throw new Error(`${server.root}: ${path} answered ${res.status}`);
  };
  for (let i = 0; i < 30; i++) await once();
  const [main0, all0] = [cpuMs(server.pid, true), cpuMs(server.pid, false)];
  for (let i = 0; i < REQUESTS; i++) await once();
  return { main: REQUESTS / ((cpuMs(server.pid, true) - main0) / 1000), all: REQUESTS / ((cpuMs(server.pid, false) - all0) / 1000) };
}

const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;

const others = process.argv.slice(2).map((root) => resolve(root));
if (others.length === 0) {
  console.error('usage: bun run bench:compare <other checkout, built> [more …]   (this checkout is compared to the first)');
  process.exit(2);
}
const roots = [...others, ROOT.replace(/\/$/, '')];
const servers: Server[] = [];
try {
  for (const [i, root] of roots.entries()) servers.push(await startServer(root, FIRST_PORT + i));
  const pages = await Promise.all(servers.map(pagesOf));
  const results: { page: string; servers: { root: string; main: number; all: number }[] }[] = [];
  console.log(`Renders per CPU second of each server (main thread / every thread), ${REQUESTS} requests × ${ROUNDS} rounds, medians:`);
  console.log(`${'page'.padEnd(17)}${roots.map((r) => r.slice(-28).padStart(30)).join('')}   ratio to the first`);
  for (const [p, page] of pages[0]!.entries()) {
    const samples = servers.map(() => ({ main: [] as number[], all: [] as number[] }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [s, server] of servers.entries()) {
        const { main, all } = await rates(server, pages[s]![p]!);
        samples[s]!.main.push(main);
        samples[s]!.all.push(all);
      }
    }
    const row = servers.map((server, s) => ({ root: server.root, main: median(samples[s]!.main), all: median(samples[s]!.all) }));
    results.push({ page: page.name, servers: row });
    const ratios = row.slice(1).map((r) => `${(r.main / row[0]!.main).toFixed(2)}× / ${(r.all / row[0]!.all).toFixed(2)}×`);
    console.log(`${page.name.padEnd(17)}${row.map((r) => `${r.main.toFixed(0)} / ${r.all.toFixed(0)}`.padStart(30)).join('')}   ${ratios.join('  ')}`);
  }
  mkdirSync(join(ROOT, 'bench/.results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench/.results/compare-builds.json'), `${JSON.stringify({ at: new Date().toISOString(), requests: REQUESTS, rounds: ROUNDS, results }, null, 2)}\n`);
} finally {
  for (const server of servers) server.stop();
}
