/**
 * `bun run bench:soak` — the built server (`bun run build` first) on PostgreSQL (DATABASE_URL)
 * under a mixed load for a minute: 200 concurrent clients over loopback, most of them customers
 * (sign in, upload a photo and create a request, list and open their requests, send shipping
 * details), a tenth admins (list, approve, receive, credit). Prints requests, errors, p50/p99 per
 * kind and the server's RSS at the start and the end. Targets: 0 errors (a 5xx, a dropped
 * connection or an unexpected 4xx; a 409 from two admins taking one request at once is counted
 * apart), RSS growth < 50 MB. Exits 1 when a target is missed.
 *
 * Bounded: a database of its own (dropped afterwards), the server on a temporary DATA_DIR, a hard
 * stop at the duration plus three minutes. Options: --seconds N (60), --clients N (200), --keep.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { connectPostgres } from '#api/db/connect.ts';
import { migrateToLatest } from '#api/db/migrate.ts';
import { createLogger } from '#api/lib/log.ts';
import { png } from '#tests/helpers/images.ts';

const ROOT = join(import.meta.dir, '..');
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SECONDS = arg('seconds', 60);
const CLIENTS = arg('clients', 200);
const ADMINS = Math.max(1, Math.round(CLIENTS / 10));
const GROWTH_TARGET_MB = 50;
const PHOTO = new Uint8Array(png(64, 48));

// ---- measuring -----------------------------------------------------------------------------------

interface Sample {
  ms: number;
  status: number;
}
const samples = new Map<string, Sample[]>();
let errors = 0;
let conflicts = 0;
const errorKinds = new Map<string, number>();

function note(kind: string, status: number, started: number, expected: number[]) {
  if (started >= measureFrom) {
    let list = samples.get(kind);
    if (!list) samples.set(kind, (list = []));
    list.push({ ms: performance.now() - started, status });
  }
  if (expected.includes(status)) return;
  if (status === 409) {
    conflicts++;
    return;
  }
  errors++;
  const key = `${kind} → ${status || 'no answer'}`;
  errorKinds.set(key, (errorKinds.get(key) ?? 0) + 1);
}

function percentile(sorted: number[], p: number) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : 0;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

// ---- the client --------------------------------------------------------------------------------

let base = '';
let outbox: pg.Pool;
let stopAt = 0;
/** requests started before this are warm-up: their errors count, their times do not */
let measureFrom = Infinity;

async function call(kind: string, method: string, path: string, options: { token?: string; json?: unknown; form?: FormData; expected?: number[] } = {}) {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) body = options.form;
  const started = performance.now();
  let status = 0;
  let parsed: any = null;
  try {
    const res = await fetch(`${base}${path}`, { method, headers, body, signal: AbortSignal.timeout(30_000) });
    status = res.status;
    const text = await res.text();
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {}
  } catch {}
  note(kind, status, started, options.expected ?? [200]);
  return { status, body: parsed };
}

async function signIn(email: string): Promise<string | null> {
  const login = await call('sign-in: ask for a link', 'POST', '/api/auth/login', { json: { email }, expected: [202] });
  if (login.status !== 202) return null;
  const { rows } = await outbox.query(`select link from mail_outbox where to_email = $1 and kind = 'sign_in' order by id desc limit 1`, [email]);
  const token = rows[0]?.link ? new URL(rows[0].link).searchParams.get('token') : null;
  if (!token) return null;
  const verify = await call('sign-in: verify', 'POST', '/api/auth/verify-email', { json: { email, token } });
  return verify.status === 200 ? (verify.body.sessionToken as string) : null;
}

const pick = <T>(list: T[]): T | undefined => list[Math.floor(Math.random() * list.length)];
const today = new Date().toISOString().slice(0, 10);

async function customer(email: string) {
  let token = await signIn(email);
  let mine: { id: string; status: string; shipped: boolean }[] = [];
  while (performance.now() < stopAt) {
    if (!token) {
      token = await signIn(email);
      continue;
    }
    const r = Math.random();
    if (mine.length === 0 || r < 0.12) {
      const form = new FormData();
      form.append('file', new File([PHOTO], 'part.png', { type: 'image/png' }));
      form.append('upload_preset', 'swappoints');
      form.append('cloud_name', 'swappoints');
      const upload = await call('create: upload photo', 'POST', '/image/upload', { token, form });
      if (upload.status !== 200) continue;
      const created = await call('create: request', 'POST', '/api/exchange', {
        token,
        expected: [201],
        json: {
          productName: 'HP 305 Black Ink Cartridge',
          brand: 'HP',
          description: 'Unused spare from a bulk order, box opened.',
          condition: 'like_new',
          images: [{ url: upload.body.secure_url, publicId: upload.body.public_id }],
        },
      });
      if (created.status === 201) mine.push({ id: created.body.id, status: 'pending', shipped: false });
    } else if (r < 0.45) {
      const list = await call('customer list', 'GET', '/api/exchange', { token });
      if (Array.isArray(list.body)) mine = list.body.map((x: any) => ({ id: x.id, status: x.status, shipped: x.shippingDetails !== null }));
    } else if (r < 0.8) {
      await call('customer detail', 'GET', `/api/exchange/${pick(mine)!.id}`, { token });
    } else if (r < 0.97) {
      const approved = mine.find((x) => x.status === 'approved' && !x.shipped);
      if (!approved) continue;
      const shipped = await call('ship', 'POST', `/api/exchange/${approved.id}/shipping`, {
        token,
        json: { carrierName: 'Blue Dart', trackingNumber: `BD${Date.now()}`, shippingDate: today, notes: null },
      });
      if (shipped.status === 200) approved.shipped = true;
    } else token = await signIn(email);
  }
}

async function admin(email: string, warehouseId: string) {
  let token = await signIn(email);
  while (performance.now() < stopAt) {
    if (!token) {
      token = await signIn(email);
      continue;
    }
    const r = Math.random();
    const tab = r < 0.4 ? 0 : r < 0.65 ? 2 : 3;
    const list = await call('admin list', 'GET', `/api/admin/exchange-requests?tab=${tab}&page=1&pageSize=20`, { token });
    const rows: any[] = Array.isArray(list.body) ? list.body : [];
    if (tab === 0) {
      const one = pick(rows);
      if (one) await call('approve', 'PUT', `/api/admin/exchange-requests/${one.id}/status`, { token, json: { status: 'approved', warehouseId } });
    } else if (tab === 2) {
      const one = pick(rows.filter((x) => x.transitStatus !== 'received'));
      if (one) await call('receive', 'PUT', `/api/admin/exchange-requests/${one.id}/transit`, { token, json: { transitStatus: 'received' } });
    } else {
      const one = pick(rows.filter((x) => Number(x.creditAmount) === 0));
      if (one) await call('credit', 'PUT', `/api/admin/exchange-requests/${one.id}/credit`, { token, json: { creditAmount: 100 + Math.floor(Math.random() * 900) } });
    }
    if (!rows.length) await Bun.sleep(50); // nothing to do yet: let the customers catch up
  }
}

// ---- main ----------------------------------------------------------------------------------------

async function main() {
  const server = process.env.DATABASE_URL;
  if (!server) throw new Error('Set DATABASE_URL to a PostgreSQL server (the bench creates and drops a database of its own).');
  const name = `sp_soak_${process.pid}`;
  const root = new pg.Client({ connectionString: server });
  await root.connect();
  await root.query(`create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const dbUrl = url.toString();
  const dataDir = mkdtempSync(join(tmpdir(), 'sp-soak-'));
  let proc: ReturnType<typeof Bun.spawn> | undefined;
  const hardStop = setTimeout(() => {
    console.error('bench:soak ran past its bound; stopping');
    proc?.kill('SIGKILL');
    process.exit(1);
  }, (SECONDS + 180) * 1000);
  let failed = false;
  try {
    const handle = connectPostgres(dbUrl, createLogger('error'));
    await migrateToLatest(handle.db);
    await handle.close();
    outbox = new pg.Pool({ connectionString: dbUrl, max: 4 });
    outbox.on('error', () => {}); // an idle connection closed when the bench database is dropped
    const customers = Array.from({ length: CLIENTS - ADMINS }, (_, i) => `soak.customer.${i}@example.com`);
    const admins = Array.from({ length: ADMINS }, (_, i) => `soak.admin.${i}@swappoints.example`);
    await outbox.query(`insert into shop_customers (email, first_name, last_name) select unnest($1::text[]), 'Soak', 'Tester'`, [[...customers, ...admins]]);
    const warehouse = await outbox.query(
      `insert into warehouses (name, address_line1, city, state, postal_code, country)
       values ('Soak Hub', 'Plot 18, Peenya', 'Bengaluru', 'Karnataka', '560058', 'India') returning id`,
    );

    proc = Bun.spawn(['bun', join(ROOT, 'cli/index.ts'), 'serve'], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: dbUrl,
        DATA_DIR: dataDir,
        PORT: '0',
        LOG_LEVEL: 'error',
        DEMO_SEED: 'false',
        ADMIN_EMAILS: admins.join(','),
        JWT_SECRET: 'soak-secret-soak-secret-soak-secret-0123456',
        // the bench's 200 clients share one address and sign in often: the limits are for people
        SIGNIN_LIMIT_PER_IP: '100000',
        SIGNIN_LIMIT_PER_EMAIL: '10000',
        MAX_OPEN_REQUESTS_PER_CUSTOMER: '100000',
        MAX_NEW_REQUESTS_PER_DAY: '100000',
      } as Record<string, string>,
      stdout: 'pipe',
      stderr: 'pipe',
    });
    let output = '';
    void (async () => {
      for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) output += new TextDecoder().decode(chunk);
    })();
    void (async () => {
      for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) output += new TextDecoder().decode(chunk);
    })();
    const ready = Date.now() + 60_000;
    let m: RegExpMatchArray | null;
    while (!(m = output.match(/ready on http:\/\/localhost:(\d+)/))) {
      if (proc.exitCode !== null || Date.now() > ready) throw new Error(`the server did not start (run \`bun run build\` first?):\n${output}`);
      await Bun.sleep(50);
    }
    base = `http://127.0.0.1:${m[1]}`;

    const rssIdle = rssMb(proc.pid);
    // the same load for a warm-up first (JIT, pools, caches fill), so RSS growth measures the soak, not the start
    const warmUp = Math.min(10, Math.max(2, SECONDS / 6));
    const clients = Promise.all([...customers.map((e) => customer(e)), ...admins.map((e) => admin(e, warehouse.rows[0].id))]);
    stopAt = performance.now() + (warmUp + SECONDS) * 1000;
    await Bun.sleep(warmUp * 1000);
    measureFrom = performance.now();
    const load = (await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ');
    const rssStart = rssMb(proc.pid);
    let rssPeak = rssStart;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(proc!.pid))), 1000);
    const started = measureFrom;
    await clients;
    const elapsed = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const rssEnd = rssMb(proc.pid);
    const loadAfter = (await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ');

    const all = [...samples.values()].flat().map((s) => s.ms).sort((a, b) => a - b);
    console.log(`\n${CLIENTS} clients (${ADMINS} admins) for ${elapsed.toFixed(0)} s (after ${warmUp} s of warm-up) against the built server on PostgreSQL; load average ${load} at the start, ${loadAfter} at the end`);
    console.log('\n| kind | requests | p50 ms | p99 ms |');
    console.log('| --- | ---: | ---: | ---: |');
    for (const [kind, list] of [...samples.entries()].sort()) {
      const ms = list.map((s) => s.ms).sort((a, b) => a - b);
      console.log(`| ${kind} | ${list.length} | ${percentile(ms, 0.5).toFixed(1)} | ${percentile(ms, 0.99).toFixed(1)} |`);
    }
    console.log(`| all | ${all.length} | ${percentile(all, 0.5).toFixed(1)} | ${percentile(all, 0.99).toFixed(1)} |`);
    console.log(`\nrequests ${all.length} (${Math.round(all.length / elapsed)}/s), errors ${errors}, conflicts (409, two admins on one request) ${conflicts}`);
    for (const [key, n] of errorKinds) console.log(`  ${key}: ${n}`);
    console.log(`server RSS ${rssStart.toFixed(0)} MB at the start, ${rssEnd.toFixed(0)} MB at the end (peak ${rssPeak.toFixed(0)} MB; ${rssIdle.toFixed(0)} MB idle before the warm-up)`);
    const growth = rssEnd - rssStart;
    const checks: [string, boolean][] = [
      [`errors: ${errors} (target 0)`, errors === 0],
      [`RSS growth ${growth.toFixed(0)} MB (target < ${GROWTH_TARGET_MB} MB)`, growth < GROWTH_TARGET_MB],
    ];
    console.log('');
    for (const [text, ok] of checks) console.log(`${ok ? 'PASS' : 'FAIL'}  ${text}`);
    failed = checks.some(([, ok]) => !ok);
  } finally {
    clearTimeout(hardStop);
    if (proc && proc.exitCode === null) {
      proc.kill('SIGTERM');
      const stopped = await Promise.race([proc.exited.then(() => true), Bun.sleep(15_000).then(() => false)]);
      if (!stopped) proc.kill('SIGKILL');
    }
    await outbox?.end();
    if (!process.argv.includes('--keep')) await root.query(`drop database if exists ${name} with (force)`);
    await root.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (failed) process.exit(1);
}

await main();
