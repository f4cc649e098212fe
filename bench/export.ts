/**
 * Credit-history export: rows per second and peak memory of the real CLI.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bun run bench:export [rows]
 *
 * On the PostgreSQL server DATABASE_URL points at it creates a database of its own (dropped at the
 * end), migrates it, and loads `rows` (default 1,000,000) exchange credits in SQL with the users and
 * completed requests they belong to. The requests' and ledger's trigram search indexes are dropped
 * for the load: they make it minutes slower and the export never reads them. It then runs
 * `swappoints credits export --format csv --out FILE` as a subprocess and reports its wall time
 * (start-up included), rows per second, and its peak resident memory: the kernel's own figure for
 * the finished child (rusage maxrss), cross-checked with VmHWM from /proc/<pid>/status read while
 * it runs. Targets: at least 100,000 rows/s and under 150 MB. Results also go to
 * bench/.results/export.json.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { connectPostgres } from '#api/db/connect.ts';
import { migrateToLatest } from '#api/db/migrate.ts';
import { createLogger } from '#api/lib/log.ts';
import { ROOT } from '#tests/helpers/cli.ts';

const TARGET_ROWS_PER_SECOND = 100_000;
const TARGET_PEAK_MB = 150;
const rows = Number(process.argv[2] ?? 1_000_000);
const base = process.env.DATABASE_URL;
if (!base) {
  console.error('bench:export needs DATABASE_URL (a PostgreSQL server it may create a database on).');
  process.exit(2);
}
if (!Number.isInteger(rows) || rows < 1) {
  console.error('usage: bun run bench:export [rows]');
  process.exit(2);
}

const name = `sp_bench_export_${process.pid}`;
const admin = async (statement: string) => {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
};
const url = new URL(base);
url.pathname = `/${name}`;
const work = mkdtempSync(join(tmpdir(), 'swappoints-bench-export-'));

const seconds = (ms: number) => Math.round(ms / 10) / 100;

async function seed(): Promise<number> {
  const handle = connectPostgres(url.toString(), createLogger('error'), 2);
  try {
    await migrateToLatest(handle.db);
    const db = handle.db;
    await sql`drop index if exists exchange_requests_search_idx`.execute(db);
    await sql`drop index if exists credit_ledger_search_idx`.execute(db);
    const indexes = await sql<{ indexname: string }>`select indexname from pg_indexes where tablename = 'exchange_requests' and indexdef ilike '%gin%'`.execute(db);
    for (const { indexname } of indexes.rows) await sql`drop index ${sql.ref(indexname)}`.execute(db);
    const users = Math.min(10_000, rows);
    await sql`insert into users (email, name) select 'bench.' || g || '@example.com', 'Bench Customer ' || g from generate_series(1, ${users}::int) g`.execute(db);
    await sql`
      insert into exchange_requests (user_id, customer_email, product_name, brand, description, condition, status, transit_status,
        shipping_carrier, shipping_tracking_number, shipping_date, warehouse_snapshot, credit_amount, created_at)
      select u.id, u.email, 'Toner cartridge ' || g, 'Canon', 'Used once', 'good', 'completed', 'received',
        'Blue Dart', 'BD' || g, date '2026-11-01', ${JSON.stringify({ id: '00000000-0000-4000-8000-000000000000', name: 'Bench Hub', addressLine1: 'Plot 1', addressLine2: null, city: 'Bengaluru', state: 'Karnataka', postalCode: '560058', country: 'India', contactPerson: null, contactPhone: null })}::jsonb,
        100 + (g % 4900), timestamptz '2026-01-01' + g * interval '20 seconds'
      from generate_series(1, ${rows}::int) g
      join (select id, email, row_number() over (order by email) as n from users) u on u.n = 1 + (g % ${users}::int)`.execute(db);
    await sql`
      insert into credit_ledger (user_id, exchange_request_id, type, amount, currency, push_status, push_attempts,
        external_transaction_id, pushed_at, last_push_error, note, created_at)
      select r.user_id, r.id, 'exchange_credit', r.credit_amount, 'INR',
        case when r.n % 50 = 0 then 'failed' else 'success' end, 1,
        case when r.n % 50 = 0 then null else 'gid://shopify/StoreCreditAccountCreditTransaction/' || r.n end,
        case when r.n % 50 = 0 then null else r.created_at + interval '2 seconds' end,
        case when r.n % 50 = 0 then 'Error connecting to Shopify' end,
        case when r.n % 10 = 0 then 'Valued after inspection, "like new"' end,
        r.created_at
      from (select id, user_id, credit_amount, created_at, row_number() over (order by created_at) as n from exchange_requests) r
      order by r.n`.execute(db);
    await sql`analyze`.execute(db);
    const { rows: [count] } = await sql<{ n: string }>`select count(*) as n from credit_ledger`.execute(db);
    return Number(count!.n);
  } finally {
    await handle.close();
  }
}

interface Run {
  ms: number;
  /** user + system CPU time of the child */
  cpuMs: number;
  code: number;
  peakKB: number;
  hwmKB: number;
  stdout: string;
  stderr: string;
}

async function runExport(args: string[]): Promise<Run> {
  const started = performance.now();
  const proc = Bun.spawn(['bun', join(ROOT, 'cli/index.ts'), 'credits', 'export', ...args], {
    cwd: work,
    env: { ...process.env, DATABASE_URL: url.toString(), DATA_DIR: join(work, 'data'), LOG_LEVEL: 'warn' },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let hwmKB = 0;
  const poll = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'));
      if (m) hwmKB = Math.max(hwmKB, Number(m[1]));
    } catch {}
  }, 20);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearInterval(poll);
  const ms = performance.now() - started;
  // rusage of the finished child: maxRSS in bytes, CPU times in microseconds, as Bun reports them
  const usage = proc.resourceUsage();
  const maxRSS = Number(usage?.maxRSS ?? 0);
  const cpuMs = Number(usage?.cpuTime.total ?? 0) / 1000;
  return { ms, cpuMs, code, peakKB: Math.round(maxRSS / 1024), hwmKB, stdout, stderr };
}

try {
  await admin(`create database ${name}`);
  console.log(`Loading ${rows.toLocaleString('en')} ledger rows into ${name}…`);
  const seedStart = performance.now();
  const count = await seed();
  console.log(`Loaded ${count.toLocaleString('en')} rows in ${seconds(performance.now() - seedStart)} s.`);

  const out = join(work, 'credits.csv');
  const empty = await runExport(['--after-id', String(2 ** 40), '--out', join(work, 'empty.csv')]);
  if (empty.code !== 0) throw new Error(`the empty export failed: ${empty.stderr}`);
  const run = await runExport(['--format', 'csv', '--out', out]);
  if (run.code !== 0) throw new Error(`the export failed (${run.code}): ${run.stderr}`);
  const written = Number(/^(\d+) credits? written/.exec(run.stdout)?.[1]);
  if (written !== count) throw new Error(`exported ${written} rows, expected ${count}`);

  const rowsPerSecond = Math.round(count / (run.ms / 1000));
  const rowsPerSecondAfterStart = Math.round(count / (Math.max(1, run.ms - empty.ms) / 1000));
  const peakMB = Math.round((Math.max(run.peakKB, run.hwmKB) / 1024) * 10) / 10;
  const result = {
    rows: count,
    fileMB: Math.round(statSync(out).size / 1024 / 102.4) / 10,
    seconds: seconds(run.ms),
    startupSeconds: seconds(empty.ms),
    rowsPerSecond,
    rowsPerSecondAfterStartup: rowsPerSecondAfterStart,
    cpuSeconds: seconds(run.cpuMs),
    rowsPerCpuSecond: Math.round(count / (run.cpuMs / 1000)),
    loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
    cores: cpus().length,
    peakRssMB: peakMB,
    peakRssMBByProcStatus: Math.round((run.hwmKB / 1024) * 10) / 10,
    idleExportPeakRssMB: Math.round((Math.max(empty.peakKB, empty.hwmKB) / 1024) * 10) / 10,
    lastId: run.stderr.trim(),
    targets: { rowsPerSecond: TARGET_ROWS_PER_SECOND, peakRssMB: TARGET_PEAK_MB },
    met: { rowsPerSecond: rowsPerSecond >= TARGET_ROWS_PER_SECOND, peakRss: peakMB < TARGET_PEAK_MB },
    date: new Date().toISOString(),
  };
  console.log(
    `Exported ${count.toLocaleString('en')} rows (${result.fileMB} MB of CSV) in ${result.seconds} s: ` +
      `${rowsPerSecond.toLocaleString('en')} rows/s (${rowsPerSecondAfterStart.toLocaleString('en')} rows/s after the ${result.startupSeconds} s start-up); ` +
      `peak RSS ${peakMB} MB (an export of nothing: ${result.idleExportPeakRssMB} MB). ` +
      `CPU ${result.cpuSeconds} s: ${result.rowsPerCpuSecond.toLocaleString('en')} rows per CPU second ` +
      `(load average ${result.loadAverage.join(' ')} on ${result.cores} cores: wall time counts other work too).`,
  );
  console.log(`Targets: ≥ ${TARGET_ROWS_PER_SECOND.toLocaleString('en')} rows/s ${result.met.rowsPerSecond ? 'met' : 'MISSED'}; < ${TARGET_PEAK_MB} MB ${result.met.peakRss ? 'met' : 'MISSED'}.`);
  mkdirSync(join(ROOT, 'bench/.results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench/.results/export.json'), `${JSON.stringify(result, null, 2)}\n`);
  if (!result.met.rowsPerSecond || !result.met.peakRss) process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
  await admin(`drop database if exists ${name} with (force)`).catch((error) => console.error(`could not drop ${name}: ${error.message}`));
}
