/**
 * Memory of the built server, embedded PGlite beside PostgreSQL, as an operator sees it (RSS).
 *
 *   bun run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bun run bench:memory
 *
 * For each database it starts `swappoints serve` on a fresh DATA_DIR (PGlite: the demo shop is
 * loaded, as `bun run start` does; PostgreSQL: a database of its own, dropped at the end, with the
 * demo loaded too), waits for /api/health, reads the kernel's peak RSS of start-up (VmHWM), sends a
 * few page and API requests, lets it idle and reads RSS again. Targets (issue 28): PGlite idle
 * ≤ 200 MB, start-up peak ≤ 350 MB. Results also go to bench/.results/memory.json.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const ROOT = join(import.meta.dir, '..');
const IDLE_MS = Number(process.env.IDLE_MS ?? 10_000);
const TARGET_IDLE_MB = 200;
const TARGET_PEAK_MB = 350;

const mb = (kb: number) => Math.round(kb / 1024);
function statusOf(pid: number): { rss: number; hwm: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
  return { rss: field('VmRSS'), hwm: field('VmHWM') };
}

async function measure(kind: 'pglite' | 'postgres', databaseUrl?: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'sp-bench-memory-'));
  const port = 3300 + Math.floor(Math.random() * 500);
  const env: Record<string, string | undefined> = { ...process.env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', DEMO_SEED: 'true' };
  const started = performance.now();
  const server = Bun.spawn(['bun', join(ROOT, 'cli/index.ts'), 'serve'], { cwd: ROOT, env, stdout: 'ignore', stderr: 'inherit' });
  try {
    for (;;) {
      if (performance.now() - started > 120_000) throw new Error(`${kind}: no answer from /api/health within 2 minutes`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false);
      if (ok) break;
      await Bun.sleep(100);
    }
    const ready = performance.now() - started;
    const peakStartup = statusOf(server.pid).hwm;
    for (const path of ['/email-signin', '/terms', '/api/health', '/api/docs/json', '/nope']) await fetch(`http://127.0.0.1:${port}${path}`).then((r) => r.arrayBuffer());
    await Bun.sleep(IDLE_MS);
    Bun.gc?.(true);
    const idle = statusOf(server.pid);
    return { kind, readyMs: Math.round(ready), peakStartupMb: mb(peakStartup), idleMb: mb(idle.rss), peakMb: mb(idle.hwm) };
  } finally {
    server.kill('SIGTERM');
    await server.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const results = [await measure('pglite')];
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
  try {
    const url = new URL(base);
    url.pathname = `/${name}`;
    results.push(await measure('postgres', url.toString()));
  } finally {
    await admin(`drop database if exists ${name} with (force)`);
  }
}

console.log(`\nMemory of the built server (RSS, MB; idle after ${IDLE_MS / 1000} s):`);
console.log('database    ready (s)  start-up peak  idle');
for (const r of results) console.log(`${r.kind.padEnd(10)}  ${(r.readyMs / 1000).toFixed(1).padStart(8)}  ${String(r.peakStartupMb).padStart(13)}  ${String(r.idleMb).padStart(4)}`);
const [embedded, postgres] = results;
if (postgres) console.log(`PGlite / PostgreSQL: start-up peak ×${(embedded!.peakStartupMb / postgres.peakStartupMb).toFixed(2)}, idle ×${(embedded!.idleMb / postgres.idleMb).toFixed(2)}`);
console.log(`targets (PGlite): idle ≤ ${TARGET_IDLE_MB} MB ${embedded!.idleMb <= TARGET_IDLE_MB ? 'met' : 'NOT met'}, start-up peak ≤ ${TARGET_PEAK_MB} MB ${embedded!.peakStartupMb <= TARGET_PEAK_MB ? 'met' : 'NOT met'}`);
mkdirSync(join(ROOT, 'bench/.results'), { recursive: true });
writeFileSync(join(ROOT, 'bench/.results/memory.json'), JSON.stringify({ at: new Date().toISOString(), idleMs: IDLE_MS, results }, null, 2));
