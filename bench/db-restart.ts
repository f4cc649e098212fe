/**
 * `bun run bench:db-restart` — a PostgreSQL restart under read load (issue 28, point 8). Needs
 * DATABASE_URL, `bun run build`, and the right to run `pg_ctlcluster` (root or the postgres user).
 *
 * Creates a database of its own, starts the built server on it (`swappoints serve`), seeds 2,000
 * requests over 200 customers, then 32 clients read through the API (a customer's request detail and
 * list, the admin queue) for --seconds (default 12). After --restart-at seconds (default 4) it
 * restarts the cluster that serves DATABASE_URL (`pg_ctlcluster VERSION NAME restart`, the one on
 * its port in `pg_lsclusters`). It prints the answers by status, the longest request and the answers
 * per second, and passes when every answer is 2xx and no request was held longer than
 * DB_UNAVAILABLE_WAIT_MS (the server's setting, default 5000) + 1 s. Exit 1 otherwise.
 *
 * It restarts the machine's PostgreSQL: everything else connected to it loses its connections.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { DEFAULT_UNAVAILABLE_WAIT_MS } from '#api/db/connect.ts';
import { JWT_SECRET, seed, tokenFor } from './seed-requests.ts';

const ROOT = join(import.meta.dir, '..');
const CLIENTS = 32;
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};

/** The cluster serving `port`, from `pg_lsclusters` (columns: version, cluster, port, status, …). */
async function clusterOn(port: number): Promise<{ version: string; name: string }> {
  const listing = await Bun.$`pg_lsclusters --no-header`.text();
  for (const line of listing.trim().split('\n')) {
    const [version, name, clusterPort] = line.trim().split(/\s+/);
    if (Number(clusterPort) === port && version && name) return { version, name };
  }
  throw new Error(`no cluster in pg_lsclusters listens on port ${port}:\n${listing}`);
}

async function startServer(databaseUrl: string, waitMs: number) {
  const env = { ...process.env, PORT: '0', DATABASE_URL: databaseUrl, JWT_SECRET, LOG_LEVEL: 'error', DB_UNAVAILABLE_WAIT_MS: String(waitMs), DATA_DIR: mkdtempSync(join(tmpdir(), 'sp-db-restart-')) };
  const server = Bun.spawn(['bun', join(ROOT, 'cli/index.ts'), 'serve'], { cwd: ROOT, env, stdout: 'ignore', stderr: 'pipe' });
  // the server names its port on stderr once it is ready; later lines (errors) are passed on
  const reader = server.stderr.getReader();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the server stopped before it was ready:\n${text}`);
    text += new TextDecoder().decode(value);
    const port = /listening on port (\d+)/.exec(text)?.[1];
    if (port) {
      void (async () => {
        for (;;) {
          const next = await reader.read();
          if (next.done) return;
          process.stderr.write(next.value);
        }
      })();
      return { server, origin: `http://127.0.0.1:${port}` };
    }
  }
}

interface Answer {
  at: number;
  ms: number;
  status: number | 'network error';
}

async function main() {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('Set DATABASE_URL to the PostgreSQL server to restart (the bench creates and drops a database of its own).');
  const seconds = arg('seconds', 12);
  const restartAt = arg('restart-at', 4);
  const waitMs = Number(process.env.DB_UNAVAILABLE_WAIT_MS ?? DEFAULT_UNAVAILABLE_WAIT_MS);
  const cluster = await clusterOn(Number(new URL(base).port || 5432));
  const name = `sp_restart_${process.pid}`;
  const url = new URL(base);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();

  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const { server, origin } = await startServer(databaseUrl, waitMs); // it migrates the new database
  const answers: Answer[] = [];
  let restart = { startedAt: 0, tookMs: 0, exitCode: -1, output: '' };
  try {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await seed(client, 0, 2_000, 200);
    const owners = (
      await client.query(`select distinct on (r.user_id) u.email, r.id from exchange_requests r join users u on u.id = r.user_id order by r.user_id, r.created_at desc`)
    ).rows as { email: string; id: string }[];
    const customers: { id: string; token: string }[] = [];
    for (const o of owners) customers.push({ id: o.id, token: await tokenFor(client, o.email, false) });
    const adminToken = await tokenFor(client, 'bench.admin@swappoints.example', true);
    await client.end();

    const reads = [
      (c: { id: string; token: string }) => [`/api/exchange/${c.id}`, c.token],
      (c: { id: string; token: string }) => ['/api/exchange?page=1&pageSize=10', c.token],
      () => ['/api/admin/exchange-requests?tab=0&page=1&pageSize=20', adminToken],
    ] as const;
    const started = performance.now();
    const end = started + seconds * 1000;
    const worker = async (n: number) => {
      for (let i = n; performance.now() < end; i++) {
        const [path, token] = reads[i % reads.length]!(customers[(i * 7 + n) % customers.length]!);
        const at = performance.now();
        let status: Answer['status'];
        try {
          const response = await fetch(`${origin}${path}`, { headers: { authorization: `Bearer ${token}` } });
          await response.arrayBuffer();
          status = response.status;
        } catch {
          status = 'network error';
        }
        answers.push({ at: (at - started) / 1000, ms: performance.now() - at, status });
      }
    };
    const restarting = (async () => {
      await Bun.sleep(restartAt * 1000);
      const at = performance.now();
      const run = await Bun.$`pg_ctlcluster ${cluster.version} ${cluster.name} restart`.nothrow().quiet();
      restart = { startedAt: (at - started) / 1000, tookMs: performance.now() - at, exitCode: run.exitCode, output: `${run.stdout}${run.stderr}`.trim() };
    })();
    await Promise.all([...Array.from({ length: CLIENTS }, (_, n) => worker(n)), restarting]);
  } finally {
    server.kill('SIGTERM');
    await server.exited;
    const cleanup = new pg.Client({ connectionString: base });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  }

  const byStatus = new Map<string, number>();
  for (const a of answers) byStatus.set(String(a.status), (byStatus.get(String(a.status)) ?? 0) + 1);
  const longest = answers.reduce((max, a) => (a.ms > max.ms ? a : max), answers[0]!);
  console.log(`\n${CLIENTS} clients for ${seconds} s; pg_ctlcluster ${cluster.version} ${cluster.name} restart at ${restart.startedAt.toFixed(1)} s took ${(restart.tookMs / 1000).toFixed(2)} s${restart.output ? ` (${restart.output})` : ''}`);
  console.log(`DB_UNAVAILABLE_WAIT_MS ${waitMs}\n`);
  console.log('| second | answers | non-2xx | longest ms |');
  console.log('| ---: | ---: | ---: | ---: |');
  for (let s = 0; s < Math.ceil(seconds); s++) {
    const inSecond = answers.filter((a) => Math.floor(a.at) === s);
    const bad = inSecond.filter((a) => typeof a.status !== 'number' || a.status >= 300).length;
    console.log(`| ${s} | ${inSecond.length} | ${bad} | ${Math.round(Math.max(0, ...inSecond.map((a) => a.ms)))} |`);
  }
  console.log(`\nanswers by status: ${[...byStatus].map(([status, n]) => `${status}: ${n}`).join(', ')}`);
  console.log(`longest request: ${Math.round(longest.ms)} ms (sent at ${longest.at.toFixed(2)} s, answered ${longest.status})\n`);
  const failed = answers.filter((a) => typeof a.status !== 'number' || a.status < 200 || a.status >= 300).length;
  const checks: [string, boolean][] = [
    [`pg_ctlcluster restarted the cluster (exit ${restart.exitCode})`, restart.exitCode === 0],
    [`0 non-2xx answers of ${answers.length} (got ${failed})`, failed === 0 && answers.length > 0],
    [`no request held longer than ${waitMs + 1000} ms (longest ${Math.round(longest.ms)} ms)`, longest.ms <= waitMs + 1000],
  ];
  for (const [text, ok] of checks) console.log(`${ok ? 'PASS' : 'FAIL'}  ${text}`);
  if (checks.some(([, ok]) => !ok)) process.exitCode = 1;
}

await main();
