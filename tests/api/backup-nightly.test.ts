import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jobsFor } from '#api/jobs/registry.ts';
import { startBackgroundJobs } from '#api/jobs/runner.ts';
import { readManifest } from '#api/modules/backup/archive.ts';
import { nightlyBackup } from '#api/modules/backup/nightly.ts';
import { loadSettings } from '#api/settings.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';

setDefaultTimeout(120_000);

const backupsIn = (dir: string) => readdirSync(dir).filter((name) => name.startsWith('swappoints-')).sort();

describe.each(databaseKinds())('the nightly backup (%s)', (kind) => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'swappoints-nightly-'));
    t = await createTestApp(kind, { BACKUP_DIR: dir, BACKUP_KEEP: '2' });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('with BACKUP_DIR set, the job loop writes a backup there shortly after start', async () => {
    const stop = startBackgroundJobs(t.ctx);
    try {
      const deadline = Date.now() + 60_000;
      while (backupsIn(dir).length === 0 && Date.now() < deadline) await Bun.sleep(200);
    } finally {
      await stop();
    }
    const [name] = backupsIn(dir);
    expect(name).toMatch(/^swappoints-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.tar$/);
    const files = await new Bun.Archive(readFileSync(join(dir, name!))).files();
    expect(await readManifest(files)).toMatchObject({ format: 'swappoints-backup', database: kind === 'pglite' ? 'embedded' : 'postgres' });
  });

  test('only the BACKUP_KEEP newest backups are kept; other files in the folder are left alone', async () => {
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    for (let i = 0; i < 3; i++) {
      await nightlyBackup(t.ctx);
      await Bun.sleep(5); // distinct names (milliseconds)
    }
    const kept = backupsIn(dir);
    expect(kept.length).toBe(2);
    expect(readdirSync(dir)).toContain('notes.txt');
  });
});

describe('BACKUP_DIR and BACKUP_KEEP', () => {
  const base = { DATA_DIR: '/tmp/unused', JWT_SECRET: 'x'.repeat(40) };
  test('no BACKUP_DIR, no nightly backup job; BACKUP_KEEP is 7 unless set, a whole number from 1', () => {
    expect(jobsFor(loadSettings(base)).map((j) => j.name)).not.toContain('nightly-backup');
    expect(jobsFor(loadSettings({ ...base, BACKUP_DIR: '/tmp/b' })).map((j) => j.name)).toContain('nightly-backup');
    expect(loadSettings(base).backupKeep).toBe(7);
    expect(() => loadSettings({ ...base, BACKUP_KEEP: '0' })).toThrow('Invalid setting BACKUP_KEEP');
  });
});
