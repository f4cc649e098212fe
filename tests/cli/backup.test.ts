import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppContext } from '#api/context.ts';
import { runCli as runInProcess } from '#cli/program.ts';
import { startServerHost, type RunningHost } from '#cli/server.ts';
import { loadSettings } from '#api/settings.ts';
import { runCli } from '#tests/helpers/cli.ts';
import { cliKinds, cliTarget, type CliTarget } from '#tests/helpers/cli-targets.ts';
import { requestAt, withContext } from './operator-data.ts';

setDefaultTimeout(180_000);

/** What a restored server must show the same: users, requests, their events and images, the ledger. */
async function snapshot(ctx: AppContext) {
  const rows = async (table: 'users' | 'exchange_requests' | 'request_events' | 'request_images' | 'credit_ledger' | 'warehouses') =>
    JSON.parse(JSON.stringify(await ctx.db.selectFrom(table).selectAll().orderBy('id').execute())) as unknown[];
  const images: Record<string, string> = {};
  for await (const { key } of ctx.images.list()) images[key] = Buffer.from(await new Response((await ctx.images.get(key))!.body).bytes()).toString('base64');
  return {
    users: await rows('users'),
    requests: await rows('exchange_requests'),
    events: await rows('request_events'),
    requestImages: await rows('request_images'),
    ledger: await rows('credit_ledger'),
    warehouses: await rows('warehouses'),
    images,
  };
}

describe.each(cliKinds())('swappoints backup and restore (%s database)', (kind) => {
  let source: CliTarget;
  let work: string;
  let archive: string;
  let before: Awaited<ReturnType<typeof snapshot>>;
  /** the backup every test reads, taken once here: tests run in a random order */
  let backup: Awaited<ReturnType<typeof runCli>>;
  const targets: CliTarget[] = [];
  const freshTarget = async () => {
    const target = await cliTarget(kind, { empty: true });
    targets.push(target);
    return target;
  };

  beforeAll(async () => {
    source = await cliTarget(kind);
    work = mkdtempSync(join(tmpdir(), 'swappoints-backup-'));
    archive = join(work, 'backup.tar');
    before = await withContext(source.env, async (ctx) => {
      for (const stage of ['pending', 'approved', 'credited', 'completed'] as const) await requestAt(ctx, stage);
      return snapshot(ctx);
    });
    backup = await runCli(['backup', '--out', archive, '--json'], source.env);
  });
  afterAll(async () => {
    await source?.cleanup();
    for (const target of targets) await target.cleanup();
    rmSync(work, { recursive: true, force: true });
  });

  test('backup --out FILE --json writes one archive of the database and the images, and says what is in it', async () => {
    const res = backup;
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const report = JSON.parse(res.stdout);
    expect(report).toMatchObject({ format: 'swappoints-backup', file: archive, database: kind, images: Object.keys(before.images).length });
    expect(report.migration).toMatch(/^\d+/);
    expect(report.bytes).toBeGreaterThan(1000);
    expect(Object.keys(before.images).length).toBeGreaterThanOrEqual(4);
  });

  test('restore FILE into an empty DATA_DIR or database gives the same users, requests, ledger and images', async () => {
    const target = await freshTarget();
    const res = await runCli(['restore', archive, '--json'], target.env);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ database: kind, images: Object.keys(before.images).length, skipped: 0 });
    const after = await withContext(target.env, snapshot);
    expect(after.requests.length).toBe(4);
    expect(after.ledger.length).toBe(2);
    expect(after).toEqual(before);
  });

  test('restore refuses a DATA_DIR or database that is not empty (exit 2), and replaces it with --force', async () => {
    const target = await freshTarget();
    await withContext(target.env, async (ctx) => void (await requestAt(ctx, 'declined')));
    const refused = await runCli(['restore', archive], target.env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('is not empty. Restore into an empty one, or pass --force');
    expect((await withContext(target.env, snapshot)).requests.length).toBe(1);

    const forced = await runCli(['restore', archive, '--force'], target.env);
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(`Restored the ${kind} database of`);
    expect(await withContext(target.env, snapshot)).toEqual(before);
  });

  test('a file that is not a backup, or a backup of the other kind of database, is refused with a sentence', async () => {
    const target = await freshTarget();
    const junk = join(work, 'junk.tar');
    writeFileSync(junk, 'not a tar file at all');
    const bad = await runCli(['restore', junk], target.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('not a SwapPoints backup');
    const otherKind = kind === 'embedded' ? { ...target.env, DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://nobody@127.0.0.1:1/none' } : { ...target.env, DATABASE_URL: undefined };
    const mismatch = await runCli(['restore', archive], otherKind);
    expect(mismatch.code).toBe(2);
    expect(mismatch.stderr).toContain(kind === 'embedded' ? 'This backup is of the embedded database' : 'This backup is of a PostgreSQL database');
  });

  test.if(kind === 'postgres')('without pg_dump installed, a PostgreSQL backup fails (exit 1) with a sentence saying what to install', async () => {
    const file = join(work, 'no-tools.tar');
    const bin = join(work, 'bin-without-pg-tools');
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, 'bun'));
    const res = await runCli(['backup', '--out', file], { ...source.env, PATH: bin }, { subprocess: true });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('pg_dump is not installed');
    expect(res.stderr).toContain('apt-get install postgresql-client');
    expect(existsSync(file)).toBe(false);
  });
});

describe('a backup while the server runs on the embedded database', () => {
  let target: CliTarget;
  let running: RunningHost;
  let work: string;

  beforeAll(async () => {
    target = await cliTarget('embedded');
    work = mkdtempSync(join(tmpdir(), 'swappoints-backup-'));
    const settings = loadSettings({ ...process.env, ...target.env, LOG_LEVEL: 'error', DEMO_SEED: 'false', JWT_SECRET: 'x'.repeat(40) });
    running = await startServerHost(settings, { runCli: runInProcess });
    await requestAt(running.host.ctx, 'credited');
  });
  afterAll(async () => {
    await running?.stop();
    await target?.cleanup();
    rmSync(work, { recursive: true, force: true });
  });

  test('is taken by the server while requests keep coming, and restores to rows whose images are all there', async () => {
    let writing = true;
    const made: string[] = [];
    const load = (async () => {
      while (writing) made.push((await requestAt(running.host.ctx, 'approved')).id);
    })();
    const file = join(work, 'live.tar');
    const res = await runCli(['backup', '--out', file, '--json'], target.env);
    writing = false;
    await load;
    expect(made.length).toBeGreaterThan(0); // the backup was taken while requests were being made
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);

    const restored = await cliTarget('embedded', { empty: true });
    try {
      expect((await runCli(['restore', file], restored.env)).code).toBe(0);
      const after = await withContext(restored.env, snapshot);
      expect(after.requests.length).toBeGreaterThanOrEqual(1);
      const keys = new Set(Object.keys(after.images));
      for (const image of after.requestImages as { public_id: string; content_type: string }[]) {
        expect([...keys].some((key) => key.includes(image.public_id))).toBe(true);
      }
    } finally {
      await restored.cleanup();
    }
  });

  test('restore refuses the DATA_DIR the running server holds', async () => {
    const file = join(work, 'refused.tar');
    expect((await runCli(['backup', '--out', file], target.env)).code).toBe(0);
    const res = await runCli(['restore', file, '--force'], target.env);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('is using');
    expect(res.stderr).toContain('stop it before restoring');
    expect(existsSync(join(target.env.DATA_DIR!, 'pgdata', 'PG_VERSION'))).toBe(true);
  });
});
