/**
 * `bun run bench:receive` — scan-to-receive (issue 27): POST /api/admin/receive p95 ≤ 100 ms.
 *
 * Seeds a database of its own (PostgreSQL when DATABASE_URL is set, a database it creates and drops;
 * else the embedded PGlite in a temporary DATA_DIR) with --requests N requests (default 20,000), a
 * third of them shipped, then starts the app as production serves it (the host's edge, no background
 * jobs) on a local port and scans --scans N shipped parcels one after another, as one warehouse
 * scanner does: alternately by tracking number (typed lower-case with spaces) and by packing-slip
 * reference. Each scan is a real receive: a conditional update, its timeline event, its mail and
 * webhook rows. Then the same codes again (the 409 "already received" path). Prints p50/p95/p99 and
 * exits 1 when the p95 target is missed or a scan does not answer as expected.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { sql } from 'kysely';
import pg from 'pg';
import { startHost } from '#api/host.ts';
import { createLogger } from '#api/lib/log.ts';
import { requestReference } from '#api/modules/requests/reference.ts';
import { loadSettings } from '#api/settings.ts';

const TARGET_P95_MS = 100;
const JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0123';
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const REQUESTS = arg('requests', 20_000);
const SCANS = arg('scans', 400);

const baseUrl = process.env.DATABASE_URL;
const dataDir = mkdtempSync(join(tmpdir(), 'sp-bench-receive-'));
const dbName = `sp_bench_receive_${process.pid}`;
let databaseUrl: string | undefined;
if (baseUrl) {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${dbName}`;
  databaseUrl = url.toString();
}

const settings = loadSettings({ DATA_DIR: dataDir, JWT_SECRET, LOG_LEVEL: 'error', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
const host = await startHost(settings, { log: createLogger('error'), background: false });
const db = host.ctx.db;
const server = Bun.serve({ port: 0, fetch: (request, s) => host.serve(request, s, async () => new Response('not a page', { status: 404 })) });

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const round = (ms: number) => Math.round(ms * 10) / 10;

try {
  console.log(`Seeding ${REQUESTS.toLocaleString('en')} requests on ${databaseUrl ? 'PostgreSQL' : 'PGlite'}…`);
  await sql`insert into users (email, name) select format('customer.%s@example.com', i), format('Customer %s', i) from generate_series(1, 500) i`.execute(db);
  await sql`
    insert into warehouses (name, address_line1, city, state, postal_code, country)
    values ('Bengaluru Returns Hub', 'Plot 18, Peenya', 'Bengaluru', 'Karnataka', '560058', 'India')`.execute(db);
  await sql`
    with w as (select id, jsonb_build_object('id', id, 'name', name, 'addressLine1', address_line1, 'addressLine2', null, 'city', city,
                 'state', state, 'postalCode', postal_code, 'country', country, 'contactPerson', null, 'contactPhone', null) as snap from warehouses limit 1),
         c as (select id, email, row_number() over (order by email) as k from users where email like 'customer.%')
    insert into exchange_requests (user_id, customer_email, product_name, brand, description, condition, status, transit_status,
       shipping_carrier, shipping_tracking_number, shipping_date, shipped_at, warehouse_id, warehouse_snapshot, created_at, updated_at)
    select c.id, c.email, 'Toner Cartridge #' || n, 'HP', 'Used spare part', 'good',
           case when n % 3 = 2 then 'pending' else 'approved' end,
           case when n % 3 = 0 then 'shipped' end,
           case when n % 3 = 0 then 'Blue Dart' end,
           case when n % 3 = 0 then 'BD' || lpad(n::text, 9, '0') || 'IN' end,
           case when n % 3 = 0 then date '2026-11-01' end,
           case when n % 3 = 0 then now() end,
           case when n % 3 < 2 then w.id end, case when n % 3 < 2 then w.snap end,
           now() - make_interval(secs => n), now() - make_interval(secs => n)
      from generate_series(1, ${REQUESTS}::int) n cross join w join c on c.k = 1 + n % 500`.execute(db);
  await sql`
    insert into request_images (request_id, uploaded_by, public_id, url, content_type, byte_size)
    select id, user_id, md5(id::text), '/media/' || md5(id::text) || '.jpg', 'image/jpeg', 40000 from exchange_requests`.execute(db);
  await sql`analyze`.execute(db);

  const { rows: [adminUser] } = await sql<{ id: string }>`insert into users (email, is_admin) values ('bench.receiver@swappoints.example', true) returning id`.execute(db);
  const { rows: [session] } = await sql<{ id: string }>`insert into sessions (user_id, expires_at) values (${adminUser!.id}, now() + interval '1 day') returning id`.execute(db);
  const token = await new SignJWT({ sub: adminUser!.id, email: 'bench.receiver@swappoints.example', admin: true, sid: session!.id })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('1d')
    .sign(new TextEncoder().encode(JWT_SECRET));

  const parcels = await db.selectFrom('exchange_requests').select(['id', 'shipping_tracking_number']).where('transit_status', '=', 'shipped').orderBy('id').limit(SCANS + 20).execute();
  const codes = parcels.map((p, i) => (i % 2 === 0 ? ` ${p.shipping_tracking_number!.toLowerCase().replace(/(\d{4})/, '$1 ')} ` : requestReference(p.id)));

  const scan = async (code: string) => {
    const started = performance.now();
    const res = await fetch(`${server.url}api/admin/receive`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', origin: server.url.origin },
      body: JSON.stringify({ code }),
    });
    await res.arrayBuffer();
    return { ms: performance.now() - started, status: res.status };
  };
  let cpuMs = 0;
  const run = async (list: string[], expected: number) => {
    const times: number[] = [];
    const cpu = process.cpuUsage();
    for (const code of list) {
      const { ms, status } = await scan(code);
      if (status !== expected) throw new Error(`scanning ${code} answered ${status}, expected ${expected}`);
      times.push(ms);
    }
    const used = process.cpuUsage(cpu);
    cpuMs = (used.user + used.system) / 1000 / list.length;
    return times.sort((a, b) => a - b);
  };

  await run(codes.slice(0, 20), 200); // warm-up: connections, prepared statements, JIT
  const first = await run(codes.slice(20), 200);
  const firstCpu = cpuMs;
  const repeat = await run(codes.slice(20), 409);
  // CPU time of this process (server, embedded database, client) per scan: what a scan costs when
  // the machine is not shared, which the latencies above are not on a busy machine
  const report = (name: string, times: number[], cpu: number) => ({ measurement: name, scans: times.length, p50: round(percentile(times, 50)), p95: round(percentile(times, 95)), p99: round(percentile(times, 99)), cpuMsPerScan: round(cpu) });
  const rows = [report('receive (200)', first, firstCpu), report('repeated scan (409)', repeat, cpuMs)];
  console.table(rows);
  console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${cpus().length} cores`);
  const met = rows.every((r) => r.p95 <= TARGET_P95_MS);
  console.log(met ? `Target met: p95 ≤ ${TARGET_P95_MS} ms.` : `Target MISSED: p95 over ${TARGET_P95_MS} ms.`);
  process.exitCode = met ? 0 : 1;
} finally {
  server.stop(true);
  await host.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (baseUrl) {
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
}
