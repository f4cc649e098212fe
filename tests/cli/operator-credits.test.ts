import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { readCsv } from '#api/lib/csv.ts';
import { creditHistoryCsv } from '#api/modules/credit/export.ts';
import { EXPORT_BATCH_ROWS } from '#api/modules/credit/ledger-export.ts';
import { listCreditHistory } from '#api/modules/credit/history.ts';
import type { CliIO } from '#cli/io.ts';
import { runCli as runInProcess } from '#cli/program.ts';
import { releaseEmbedded, ROOT, runCli, testSession } from '#tests/helpers/cli.ts';
import { cliTarget, cloneTarget, type CliTarget } from '#tests/helpers/cli-targets.ts';
import { bulkLedger, ledgerRows, requestAt, withContext } from './operator-data.ts';

// every test runs the real binary, often several times: room for a loaded machine, whichever way the files are run
setDefaultTimeout(120_000);

const HEADER = 'Date,User ID,Exchange ID,Type,Amount,Base,Bonus,Currency,Status,Customer Email,Transaction ID,Note,Ledger ID,Push Attempts,Pushed At,Push Error';
const STATUS_LABELS: Record<string, string> = { success: 'Success', failed: 'Failed', pending: 'Pending' };
/** A shop that cannot be reached: every push fails (and may be retried). */
const UNREACHABLE_SHOP = { SHOP_BACKEND: 'shopify', SHOPIFY_ADMIN_URL: 'http://127.0.0.1:9/graphql.json', SHOPIFY_ADMIN_TOKEN: 'shpat_test', SHOPIFY_TIMEOUT_MS: '1000' };

const kinds: CliTarget['name'][] = process.env.DATABASE_URL ? ['embedded', 'postgres'] : ['embedded'];

async function csvRecords(text: string) {
  const out: Record<string, string>[] = [];
  for await (const r of readCsv(text)) out.push(r.values);
  return out;
}

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));

/** What the CSV must hold for a text cell: formula-like text gets a leading apostrophe. */
const guarded = (text: string | null) => (text === null ? '' : /^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

/**
 * The real binary, which stops itself once the header and the first page of rows are in its
 * temporary file (see pause-after-first-page.ts). Resolves when the process is stopped, with the
 * temporary file; fails saying why if the export ends or never stops.
 */
async function exportPausedAfterFirstPage(env: Record<string, string | undefined>, dir: string, name: string) {
  await releaseEmbedded(env);
  const proc = Bun.spawn(['bun', '--preload', join(ROOT, 'tests/helpers/pause-after-first-page.ts'), join(ROOT, 'cli/index.ts'), 'credits', 'export', '--out', join(dir, name)], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env } as Record<string, string>,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  // a Bun start, the app's imports and a page of rows: minutes on a machine shared by many test runs
  const deadline = Date.now() + 180_000;
  while (processState(proc.pid) !== 'T') {
    if (proc.exitCode !== null) throw new Error(`the export ended (${proc.exitCode}) before it paused: ${await new Response(proc.stderr).text()}`);
    if (Date.now() > deadline) throw new Error('the export did not pause after its first page');
    await Bun.sleep(20);
  }
  const temp = readdirSync(dir).find((f) => f.startsWith(`.${name}.`) && f.endsWith('.tmp'));
  if (!temp) throw new Error('the paused export has no temporary file');
  return { proc, temp: join(dir, temp) };
}

/** The state letter of a process in /proc (R running, S sleeping, T stopped, Z zombie...). */
const processState = (pid: number) => {
  try {
    return /^\d+ \(.*\) (\S)/s.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
  } catch {
    return undefined;
  }
};

describe.each(kinds)('credits on the %s database', (kind) => {
  // The same ledger in every database: the tests that change it (new rows, dates, retries, bulk
  // rows) each get a copy of their own, so no test depends on another having run before it
  // (bun test --randomize); the others share one.
  let shared: CliTarget;
  let target: CliTarget;
  const cli = (...args: string[]) => runCli(args, target.env);
  const exportCsv = async (...args: string[]) => {
    const res = await cli('credits', 'export', ...args);
    expect(res.code).toBe(0);
    return res;
  };
  /** The test body run against a copy of the shared, seeded database (as seeded: no test changes the shared one). */
  const ownLedger = (body: () => Promise<void>) => async () => {
    target = await cloneTarget(shared);
    try {
      await body();
    } finally {
      await target.cleanup();
      target = shared;
    }
  };

  beforeAll(async () => {
    target = shared = await cliTarget(kind);
    await withContext(shared.env, async (ctx) => {
      await requestAt(ctx, 'credited', { credit: 750 });
      await requestAt(ctx, 'completed', { credit: 1200 });
      await bulkLedger(ctx, 40);
    });
  }, 120_000);
  afterAll(() => shared.cleanup());

  test('credits export writes CSV with a header row; parsed back it is the ledger, quoted and formula-safe', async () => {
    const res = await exportCsv();
    expect(res.stdout.split('\r\n')[0]).toBe(HEADER);
    const db = await withContext(target.env, ledgerRows);
    expect(db).toHaveLength(42);
    const records = await csvRecords(res.stdout);
    expect(records.map((r) => [r['Ledger ID'], r.Date, r['Exchange ID'], r['Customer Email'], r.Amount, r.Currency, r.Status, r.Note, r.Type])).toEqual(
      db.map((r) => [String(r.id), new Date(r.created_at).toISOString(), r.exchange_request_id, r.email, r.amount, r.currency, STATUS_LABELS[r.push_status], guarded(r.note), 'Exchange Credit']),
    );
    expect(records[0]).toMatchObject({ Amount: '750.00', Status: 'Success', 'Transaction ID': `embedded-${db[0]!.id}` });
    expect(records.filter((r) => r.Status === 'Failed').length).toBe(4);
    // the Note column, then Ledger ID, Push Attempts, Pushed At, Push Error
    expect(res.stdout).toMatch(/,"Valued, with ""care"", after inspection",\d+,1,[^,]+,\r\n/);
    expect(res.stdout).toMatch(/,"'=HYPERLINK\(""http:\/\/evil\.example"",""x""\)",\d+,1,[^,]+,\r\n/);
    expect(res.stdout).toMatch(/,"two\nlines",\d+,1,[^,]+,\r\n/);
    expect(res.stderr).toBe(`last-id: ${db.at(-1)!.id}\n`);
  });

  test('one CSV layout: the CLI export and the admin page download have the same header and, credit for credit, the same line', async () => {
    const cli = (await exportCsv()).stdout.split('\r\n').filter(Boolean);
    const page = await withContext(target.env, async (ctx) => {
      let text = '';
      for await (const chunk of creditHistoryCsv(ctx.db, {})) text += chunk;
      return text.replace(/^\uFEFF/, '').split('\r\n').filter(Boolean);
    });
    expect(page[0]).toBe(cli[0]!);
    expect(cli[0]!.split(',')).toContain('User ID');
    expect(cli[0]!.split(',')).toContain('Type');
    expect(cli.length).toBe(43);
    expect([...page.slice(1)].sort()).toEqual([...cli.slice(1)].sort());
  });

  test('credits export --format json is an array of the API credit records; jsonl the same, one a line', async () => {
    const json = JSON.parse((await exportCsv('--format', 'json')).stdout) as Record<string, unknown>[];
    const db = await withContext(target.env, ledgerRows);
    expect(json.map((r) => [r.id, r.exchangeRequestId, r.customerEmail, r.amount, r.currency, r.pushStatus, r.loyaltyPointsSuccess, r.note, r.createdAt])).toEqual(
      db.map((r) => [r.id, r.exchange_request_id, r.email, Number(r.amount), r.currency, r.push_status, r.push_status === 'success', r.note, new Date(r.created_at).toISOString()]),
    );
    const lines = jsonLines((await exportCsv('--format', 'jsonl')).stdout);
    expect(lines).toEqual(json);
    // field for field what GET /api/admin/credit-history gives
    const api = await withContext(target.env, async (ctx) => (await listCreditHistory(ctx.db)).items);
    expect(json).toEqual([...api].sort((a, b) => a.id - b.id));
  });

  test('--after-id gives exactly the credits added since, and prints the id to continue from', ownLedger(async () => {
    const first = await exportCsv('--format', 'jsonl');
    const lastId = Number(/^last-id: (\d+)\n$/.exec(first.stderr)![1]);
    await withContext(target.env, async (ctx) => {
      await requestAt(ctx, 'credited', { credit: 300 });
      await bulkLedger(ctx, 5);
    });
    const db = await withContext(target.env, ledgerRows);
    const fresh = db.filter((r) => r.id > lastId);
    expect(fresh).toHaveLength(6);
    const next = await exportCsv('--format', 'jsonl', '--after-id', String(lastId));
    expect(jsonLines(next.stdout).map((r) => r.id)).toEqual(fresh.map((r) => r.id));
    expect(next.stderr).toBe(`last-id: ${fresh.at(-1)!.id}\n`);
    const none = await exportCsv('--after-id', String(fresh.at(-1)!.id));
    expect(none.stdout).toBe(`${HEADER}\r\n`);
    expect(none.stderr).toBe(`last-id: ${fresh.at(-1)!.id}\n`);
    expect((await exportCsv('--format', 'json', '--after-id', String(fresh.at(-1)!.id))).stdout).toBe('[]\n');
  }));

  test('--since, --until and --status filter; a date is a whole UTC day, a time is exact', ownLedger(async () => {
    const ids = await withContext(target.env, async (ctx) => {
      const rows = await ledgerRows(ctx);
      const [a, b, c] = [rows[3]!.id, rows[4]!.id, rows[5]!.id];
      const at = (id: number, time: string) => sql`update credit_ledger set created_at = ${time}::timestamptz where id = ${id}`.execute(ctx.db);
      await at(a, '2026-01-15T10:00:00Z');
      await at(b, '2026-01-16T23:59:59Z');
      await at(c, '2026-01-17T00:00:00Z');
      return { a, b, c, failed: rows.filter((r) => r.push_status === 'failed').map((r) => r.id), all: rows.map((r) => r.id) };
    });
    const exported = async (...args: string[]) => jsonLines((await exportCsv('--format', 'jsonl', ...args)).stdout).map((r) => r.id as number);
    expect(await exported('--since', '2026-01-15', '--until', '2026-01-16')).toEqual([ids.a, ids.b]);
    expect(await exported('--since', '2026-01-16T12:00+05:30', '--until', '2026-01-17')).toEqual([ids.b, ids.c]);
    expect(await exported('--since', '2026-01-15', '--until', '2026-01-16T23:59:59Z')).toEqual([ids.a]);
    expect(await exported('--until', '2026-01-31')).toEqual([ids.a, ids.b, ids.c]);
    expect(await exported('--status', 'failed')).toEqual(ids.failed);
    expect(await exported('--status', 'success')).toEqual(ids.all.filter((id) => !ids.failed.includes(id)));
    expect(await exported('--status', 'all')).toEqual(ids.all);
  }));

  test('a progress bar goes to stderr only when stderr is a terminal', async () => {
    const run = async (isTTY: boolean) => {
      const out = { stdout: '', stderr: '' };
      const io: CliIO = {
        stdout: { write: (t) => void (out.stdout += t), isTTY: false, columns: 100 },
        stderr: { write: (t) => void (out.stderr += t), isTTY, columns: 100 },
        cwd: ROOT,
      };
      const code = await runInProcess(['credits', 'export', '--format', 'jsonl'], io, testSession({ ...process.env, LOG_LEVEL: 'error', ...target.env }));
      expect(code).toBe(0);
      return out;
    };
    const terminal = await run(true);
    const rows = jsonLines(terminal.stdout);
    expect(terminal.stderr).toStartWith('\rCredits exported: ');
    expect(terminal.stderr).toContain(`\rCredits exported: ${rows.length}/${rows.length} 100%\n`);
    expect(terminal.stderr).toEndWith(`\nlast-id: ${rows.at(-1).id}\n`);
    const piped = await run(false);
    expect(piped.stdout).toBe(terminal.stdout);
    expect(piped.stderr).toBe(`last-id: ${rows.at(-1).id}\n`);
  });

  test('bad dates, formats, statuses, ids and --out paths exit 2 with one line, before any output', async () => {
    for (const args of [
      ['--since', '2026-02-30'], ['--since', 'yesterday'], ['--until', '2026-13-01'], ['--until', '2026-01-01T25:00'],
      ['--since', '2026-01-02', '--until', '2026-01-01'], ['--since', '2026-01-01', '--after-id', '5'],
      ['--after-id', '-1'], ['--after-id', 'abc'], ['--format', 'xml'], ['--status', 'maybe'],
      ['--out', join(target.env.DATA_DIR!, 'no-such-dir', 'x.csv')], ['--out', target.env.DATA_DIR!],
    ]) {
      const res = await cli('credits', 'export', ...args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toStartWith('swappoints: ');
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  test('credits retry re-pushes failed credits and reports each: failing shop → exit 1, then pushed', ownLedger(async () => {
    const failed = await withContext(target.env, async (ctx) =>
      (await ctx.db.selectFrom('credit_ledger').select(['id', 'push_attempts']).where('push_status', '=', 'failed').orderBy('id').execute()),
    );
    expect(failed.length).toBeGreaterThan(0);
    const down = await runCli(['credits', 'retry'], { ...target.env, ...UNREACHABLE_SHOP, LOG_LEVEL: 'error' });
    expect(down.code).toBe(1);
    expect(down.stderr).toBe(`swappoints: ${failed.length} of ${failed.length} credit${failed.length === 1 ? '' : 's'} could not be pushed to the shop\n`);
    const lines = down.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(failed.length);
    lines.forEach((line, i) => expect(line).toMatch(new RegExp(`^Credit ${failed[i]!.id} \\(₹[\\d,.]+ to \\S+@example\\.com\\): failed: .+`)));
    const after = await withContext(target.env, (ctx) => ctx.db.selectFrom('credit_ledger').select(['id', 'push_status', 'push_attempts']).where('id', 'in', failed.map((f) => f.id)).orderBy('id').execute());
    expect(after).toEqual(failed.map((f) => ({ id: f.id, push_status: 'failed', push_attempts: f.push_attempts + 1 })));

    const one = await cli('credits', 'retry', '--id', String(failed[0]!.id), '--json');
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ id: failed[0]!.id, outcome: 'success', record: { pushStatus: 'success', transactionId: `embedded-${failed[0]!.id}` } });
    const rest = await cli('credits', 'retry');
    expect(rest.code).toBe(0);
    expect(rest.stdout.trimEnd().split('\n').map((l) => /^Credit (\d+) .*: pushed \(transaction embedded-\d+\)$/.exec(l)?.[1])).toEqual(failed.slice(1).map((f) => String(f.id)));
    expect((await cli('credits', 'retry')).stdout).toBe('No failed credits to retry.\n');
    const again = await cli('credits', 'retry', '--id', String(failed[0]!.id));
    expect(again.code).toBe(2);
    expect(again.stderr).toBe('swappoints: This credit has already reached the shop; there is nothing to retry.\n');
    expect((await cli('credits', 'retry', '--id', '999999')).stderr).toBe('swappoints: Credit record not found\n');
    expect((await cli('credits', 'retry', '--id', 'abc')).code).toBe(2);
  }));

  test('--out writes the whole export atomically; an interrupted export leaves the previous file (or none)', ownLedger(async () => {
    const dir = target.env.DATA_DIR!;
    const out = join(dir, 'credits.csv');
    const res = await cli('credits', 'export', '--out', out);
    expect(res.code).toBe(0);
    const complete = readFileSync(out, 'utf8');
    expect(complete).toBe((await exportCsv()).stdout);
    expect(res.stdout).toBe(`${(await csvRecords(complete)).length} credits written to ${out}\n`);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    await withContext(target.env, (ctx) => bulkLedger(ctx, 3 * EXPORT_BATCH_ROWS, { users: 500 }));
    const now = (await exportCsv()).stdout;
    // the header and the first page of rows (records end in CRLF; a note's own line break is a bare LF)
    const firstPage = `${now.split('\r\n').slice(0, 1 + EXPORT_BATCH_ROWS).join('\r\n')}\r\n`;

    // SIGKILL mid-export: the target is still the previous complete file; only the temporary file is left.
    const killed = await exportPausedAfterFirstPage(target.env, dir, 'credits.csv');
    expect(readFileSync(out, 'utf8')).toBe(complete);
    killed.proc.kill('SIGKILL');
    await killed.proc.exited;
    expect(killed.proc.signalCode).toBe('SIGKILL');
    expect(readFileSync(out, 'utf8')).toBe(complete);
    // the killed export had written the header and the first page of the new export, nothing more
    expect(readFileSync(killed.temp, 'utf8')).toBe(firstPage);
    expect(firstPage.length).toBeLessThan(now.length);
    rmSync(killed.temp); // what a SIGKILL leaves: a temporary file, never a half target

    // SIGTERM mid-export to a new file: no target at all, and the temporary file is removed.
    const fresh = join(dir, 'fresh.csv');
    const termed = await exportPausedAfterFirstPage(target.env, dir, 'fresh.csv');
    termed.proc.kill('SIGTERM');
    termed.proc.kill('SIGCONT'); // the export is stopped: let it act on the signal
    await termed.proc.exited;
    expect(termed.proc.signalCode).toBe('SIGTERM');
    expect(existsSync(fresh)).toBe(false);
    expect(existsSync(termed.temp)).toBe(false);

    // and the database is still fine: a complete export now has every row
    const whole = await cli('credits', 'export', '--format', 'jsonl', '--out', join(dir, 'fresh.csv'));
    expect(whole.code).toBe(0);
    const count = await withContext(target.env, async (ctx) => Number((await ctx.db.selectFrom('credit_ledger').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n));
    expect(jsonLines(readFileSync(join(dir, 'fresh.csv'), 'utf8'))).toHaveLength(count);
  }), 300_000);

  // A file-size limit (ulimit -f) makes the export's own writes fail part-way (EFBIG). Only on
  // PostgreSQL: under such a limit the embedded database cannot write its own files at all.
  test.skipIf(kind === 'embedded')('a write that fails part-way exits 1 and leaves the previous file, no temporary file', ownLedger(async () => {
    const dir = target.env.DATA_DIR!;
    const out = join(dir, 'limited.csv');
    // far more CSV than the 256 KB the limit allows
    await withContext(target.env, (ctx) => bulkLedger(ctx, 5_000, { users: 50 }));
    writeFileSync(out, 'previous complete export\n');
    const proc = Bun.spawn(['bash', '-c', `ulimit -f 256 && exec bun ${join(ROOT, 'cli/index.ts')} credits export --out ${out}`], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', ...target.env } as Record<string, string>,
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect(code).toBe(1);
    expect(stderr).toBe('swappoints: EFBIG: file too large, write\n');
    expect(readFileSync(out, 'utf8')).toBe('previous complete export\n');
    expect(readdirSync(dir).filter((f) => f.startsWith('.limited.csv.'))).toEqual([]);
  }));
});
