import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { connectPGlite } from '#api/db/connect.ts';
import { EMBEDDED_TEMPLATE, unpackTemplate } from '#api/db/embedded-template.ts';
import { migrateToLatest } from '#api/db/migrate.ts';

let work: string;
beforeAll(() => {
  if (!existsSync(EMBEDDED_TEMPLATE)) throw new Error(`${EMBEDDED_TEMPLATE} is missing: run \`bun run build\` first`);
  work = mkdtempSync(join(tmpdir(), 'swappoints-template-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a new embedded database starts from the build template', () => {
  test('an absent pgdata becomes a migrated database, with no half-unpacked copy left beside it', async () => {
    const pgdata = join(work, 'fresh', 'pgdata');
    mkdirSync(join(work, 'fresh'));
    // a start stopped midway left a partial copy: it is replaced, not trusted
    mkdirSync(`${pgdata}.part`);
    writeFileSync(join(`${pgdata}.part`, 'PG_VERSION'), 'half');
    expect(await unpackTemplate(pgdata)).toBe(true);
    expect(existsSync(join(pgdata, 'PG_VERSION'))).toBe(true);
    expect(existsSync(`${pgdata}.part`)).toBe(false);
    const handle = await connectPGlite(pgdata);
    try {
      expect((await migrateToLatest(handle.db)).applied).toEqual([]);
      await sql`create table kept_here (id int)`.execute(handle.db);
    } finally {
      await handle.close();
    }
    // a database that exists is never replaced by the template
    expect(await unpackTemplate(pgdata)).toBe(false);
    const reopened = await connectPGlite(pgdata);
    try {
      const { rows } = await sql<{ found: string | null }>`select to_regclass('kept_here')::text as found`.execute(reopened.db);
      expect(rows[0]!.found).toBe('kept_here');
    } finally {
      await reopened.close();
    }
  }, 60_000);

  test('an empty pgdata directory is filled', async () => {
    const pgdata = join(work, 'empty', 'pgdata');
    mkdirSync(pgdata, { recursive: true });
    expect(await unpackTemplate(pgdata)).toBe(true);
    expect(readFileSync(join(pgdata, 'PG_VERSION'), 'utf8').trim()).toMatch(/^\d+$/);
  });

  test('a pgdata holding files but no database is left to PGlite as it is', async () => {
    const pgdata = join(work, 'other', 'pgdata');
    mkdirSync(pgdata, { recursive: true });
    writeFileSync(join(pgdata, 'notes.txt'), 'not ours');
    expect(await unpackTemplate(pgdata)).toBe(false);
    expect(readFileSync(join(pgdata, 'notes.txt'), 'utf8')).toBe('not ours');
    expect(existsSync(join(pgdata, 'PG_VERSION'))).toBe(false);
  });
});
