/**
 * Memory of the built server, embedded PGlite beside PostgreSQL, as an operator sees it (RSS).
 *
 *   bun run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bun run bench:memory
 *
 * For each database, two cases: the first start, `swappoints serve` on a fresh DATA_DIR (PGlite: the
 * demo shop is loaded, as `bun run start` does; PostgreSQL: a database of its own, dropped at the end,
 * with the demo loaded too), then the restart (the same DATA_DIR or database started again, the demo
 * already there). Each waits for /api/health, sends a few page and API requests, lets it idle, then
 * reads RSS and the kernel's peak RSS over the process's life (VmHWM): start-up, including what it
 * does after /api/health first answers (the pages served from memory are rendered then), and those
 * requests. On a first start the demo is loaded
 * by a short-lived process of its own (cli/demo-first-start.ts): its peak RSS, from the server's log
 * line, is printed too, since the machine holds it for a moment. Targets (issue 28): PGlite idle
 * ≤ 200 MB, start-up peak ≤ 350 MB, both cases. Results also go to bench/.results/memory.json.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const ROOT = join(import.meta.dir, '..');
const IDLE_MS = Number(process.env.IDLE_MS ?? 10_000);
const TARGET_IDLE_MB = 200;
const TARGET_PEAK_MB = 350;

const mb = (kb: number) => Math.round(kb / 1024);
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
function statusOf(pid: number): { rss: number; hwm: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
  return { rss: field('VmRSS'), hwm: field('VmHWM') };
}

type Case = 'first start' | 'restart';

async function measure(kind: 'pglite' | 'postgres', run: Case, dataDir: string, databaseUrl?: string) {
  const port = 3300 + Math.floor(Math.random() * 500);
  // info: the line that says the demo was loaded, and by which process at what peak
  const env: Record<string, string | undefined> = { ...process.env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', LOG_FORMAT: 'text', DEMO_SEED: 'true' };
  const started = performance.now();
  const server = Bun.spawn(['bun', join(ROOT, 'cli/index.ts'), 'serve'], { cwd: ROOT, env, stdout: 'ignore', stderr: 'pipe' });
  let log = '';
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of server.stderr) log += decoder.decode(chunk);
  })();
  try {
    for (;;) {
      if (performance.now() - started > 120_000) throw new Error(`${kind}: no answer from /api/health within 2 minutes:\n${log}`);
      if (server.exitCode !== null) throw new Error(`${kind}: the server exited with ${server.exitCode}:\n${log}`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false);
      if (ok) break;
      await Bun.sleep(100);
    }
    const ready = performance.now() - started;
    const peakAtHealth = statusOf(server.pid).hwm;
    for (const path of ['/email-signin', '/terms', '/api/health', '/api/docs/json', '/nope']) await fetch(`http://127.0.0.1:${port}${path}`).then((r) => r.arrayBuffer());
    await Bun.sleep(IDLE_MS);
    const idle = statusOf(server.pid);
    const seeded = /demo shop loaded into the empty database.*/.exec(log)?.[0];
    const childPeak = seeded && /peakRssMb=(\d+)/.exec(seeded)?.[1];
    const seedingPeakMb = childPeak ? Number(childPeak) : undefined;
    return { kind, run, readyMs: Math.round(ready), peakAtHealthMb: mb(peakAtHealth), idleMb: mb(idle.rss), peakMb: mb(idle.hwm), seeded: Boolean(seeded), seedingPeakMb, load: load() };
  } finally {
    server.kill('SIGTERM');
    await server.exited;
  }
}

type Result = Awaited<ReturnType<typeof measure>>;
const results: Result[] = [];
const pgliteDir = mkdtempSync(join(tmpdir(), 'sp-bench-memory-'));
try {
  results.push(await measure('pglite', 'first start', pgliteDir));
  results.push(await measure('pglite', 'restart', pgliteDir));
} finally {
  rmSync(pgliteDir, { recursive: true, force: true });
}
const base = process.env.DATABASE_URL;
if (base) {
  const name = `sp_bench_memory_${process.pid}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'sp-bench-memory-'));
  try {
    const url = new URL(base);
    url.pathname = `/${name}`;
    results.push(await measure('postgres', 'first start', dataDir, url.toString()));
    results.push(await measure('postgres', 'restart', dataDir, url.toString()));
  } finally {
    await admin(`drop database if exists ${name} with (force)`);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`\nMemory of the built server (RSS, MB; idle after ${IDLE_MS / 1000} s; load average 1/5/15 min beside each):`);
console.log('database    case         ready (s)  peak  idle  seeding process peak  load');
for (const r of results) {
  const seeding = r.seedingPeakMb !== undefined ? String(r.seedingPeakMb) : r.seeded ? 'in the server' : '-';
  console.log(
    `${r.kind.padEnd(10)}  ${r.run.padEnd(11)}  ${(r.readyMs / 1000).toFixed(1).padStart(9)}  ${String(r.peakMb).padStart(4)}  ${String(r.idleMb).padStart(4)}  ${seeding.padStart(20)}  ${r.load}`,
  );
}
const pick = (kind: string, run: Case) => results.find((r) => r.kind === kind && r.run === run);
for (const run of ['first start', 'restart'] as const) {
  const [embedded, postgres] = [pick('pglite', run)!, pick('postgres', run)];
  if (postgres) console.log(`PGlite / PostgreSQL, ${run}: peak ×${(embedded.peakMb / postgres.peakMb).toFixed(2)}, idle ×${(embedded.idleMb / postgres.idleMb).toFixed(2)}`);
}
const embedded = results.filter((r) => r.kind === 'pglite');
const idleMet = embedded.every((r) => r.idleMb <= TARGET_IDLE_MB);
const peakMet = embedded.every((r) => r.peakMb <= TARGET_PEAK_MB);
console.log(`targets (PGlite, both cases): idle ≤ ${TARGET_IDLE_MB} MB ${idleMet ? 'met' : 'NOT met'}, start-up peak ≤ ${TARGET_PEAK_MB} MB ${peakMet ? 'met' : 'NOT met'}`);
mkdirSync(join(ROOT, 'bench/.results'), { recursive: true });
writeFileSync(join(ROOT, 'bench/.results/memory.json'), JSON.stringify({ at: new Date().toISOString(), idleMs: IDLE_MS, results }, null, 2));
