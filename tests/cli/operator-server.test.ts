import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { readLock } from '#api/db/embedded-lock.ts';
import { readCsv } from '#api/lib/csv.ts';
import { EXPORT_BATCH_ROWS } from '#api/modules/credit/ledger-export.ts';
import { releaseEmbedded, tempDataDir } from '#tests/helpers/cli.ts';
import { startServer, type RunningServer } from '#tests/helpers/server.ts';
import { bulkLedger, ledgerRows, requestAt, withContext, type MadeRequest } from './operator-data.ts';

// every test runs the real binary, often several times: room for a loaded machine, whichever way the files are run
setDefaultTimeout(120_000);

/**
 * While the server holds the embedded database, operator commands are run by the server on the
 * CLI's behalf (cli/control.ts) and their output streams back over the control socket.
 * Needs the built pages: `SWAPPOINTS_DIST_DIR=dist-cli bun run build`, then run with the same variable.
 */

/**
 * Enough rows for the export to read several full pages and a part one, and for its output (over
 * 2 MB as JSON lines) to fill the control socket's buffer many times over, so the server waits for
 * the CLI to drain it: what streaming in order, none lost or repeated, is about. (It was 25 000.)
 */
const BULK = 3 * EXPORT_BATCH_ROWS + 500;
const dataDir = tempDataDir();
const env = { DATA_DIR: dataDir, DATABASE_URL: undefined };
let server: RunningServer;
let pending: MadeRequest[] = [];
let ledger: Awaited<ReturnType<typeof ledgerRows>> = [];

beforeAll(async () => {
  await withContext(env, async (ctx) => {
    pending = [await requestAt(ctx, 'pending'), await requestAt(ctx, 'pending', { productName: 'Epson 212 Cyan', brand: 'Epson' })];
    await requestAt(ctx, 'completed', { credit: 900 });
    await bulkLedger(ctx, BULK, { users: 300 });
    ledger = await ledgerRows(ctx);
  });
  await releaseEmbedded(env);
  server = await startServer({ DATA_DIR: dataDir });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));

describe('operator commands while the server runs on the embedded database', () => {
  test('requests list --json is carried out by the server', async () => {
    expect(readLock(dataDir)?.role).toBe('server');
    const res = await server.cli('requests', 'list', '--json');
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    expect(jsonLines(res.stdout).map((r) => [r.id, r.userEmail])).toEqual(pending.map((p) => [p.id, p.email]).reverse());
  });

  test('credits export streams every row through the server, in order, none lost or repeated', async () => {
    expect(ledger).toHaveLength(BULK + 1);
    const res = await server.cli('credits', 'export', '--format', 'jsonl');
    expect(res.code).toBe(0);
    const rows = jsonLines(res.stdout);
    expect(rows.map((r) => r.id)).toEqual(ledger.map((r) => r.id));
    expect(rows.map((r) => [r.exchangeRequestId, r.customerEmail, r.amount])).toEqual(ledger.map((r) => [r.exchange_request_id, r.email, Number(r.amount)]));
    expect(res.stderr).toBe(`last-id: ${ledger.at(-1)!.id}\n`);
  }, 120_000);

  test('credits export as CSV and with --after-id through the server', async () => {
    const csv = await server.cli('credits', 'export');
    expect(csv.code).toBe(0);
    const ids: number[] = [];
    for await (const r of readCsv(csv.stdout)) ids.push(Number(r.values['Ledger ID']));
    expect(ids).toEqual(ledger.map((r) => r.id));

    const from = ledger[ledger.length - 11]!.id;
    const tail = await server.cli('credits', 'export', '--format', 'jsonl', '--after-id', String(from));
    expect(jsonLines(tail.stdout).map((r) => r.id)).toEqual(ledger.slice(-10).map((r) => r.id));
    expect(tail.stderr).toBe(`last-id: ${ledger.at(-1)!.id}\n`);
  }, 120_000);

  test('credits export --out through the server writes the file where the CLI was asked to', async () => {
    const out = join(dataDir, 'through-server.jsonl');
    const res = await server.cli('credits', 'export', '--format', 'jsonl', '--out', out);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`${ledger.length} credits written to ${out}\n`);
    expect(jsonLines(readFileSync(out, 'utf8')).map((r) => r.id)).toEqual(ledger.map((r) => r.id));
    const bad = await server.cli('credits', 'export', '--since', 'tomorrow');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toStartWith('swappoints: --since must be a date');
  }, 120_000);
});
