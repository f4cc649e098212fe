import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { connectPGlite, connectPostgres, type DatabaseHandle } from '#api/db/connect.ts';
import { migrateToLatest } from '#api/db/migrate.ts';
import { createLogger } from '#api/lib/log.ts';
import { migrations } from '#migrations/index.ts';
import { CopiedDataDir, type DataDirImage, readDataDir } from './pglite-copy.ts';

export type DatabaseKind = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL too when DATABASE_URL is set (CI sets it). */
export function databaseKinds(): DatabaseKind[] {
  return process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TestDatabase {
  kind: DatabaseKind;
  handle: DatabaseHandle;
  /** the PostgreSQL URL of this test's own database (postgres kind only) */
  url?: string;
  drop(): Promise<void>;
}

/** Which migrations, as written, on which PGlite: a changed or added migration or an upgrade names new templates. */
const pgliteVersion = (await Bun.file(join(import.meta.dir, '../../node_modules/@electric-sql/pglite/package.json')).json()).version as string;
const schemaKey = new Bun.CryptoHasher('sha256')
  .update([pgliteVersion, ...Object.entries(migrations).map(([name, m]) => `${name}\n${m.up}\n${m.down ?? ''}`)].join('\n'))
  .digest('hex')
  .slice(0, 16);

async function withAdmin<T>(body: (admin: pg.Client) => Promise<T>): Promise<T> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('DATABASE_URL is not set');
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    return await body(admin);
  } finally {
    await admin.end();
  }
}

function urlOf(name: string): string {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Any constant of our own: test processes building the PostgreSQL template take turns. */
const TEMPLATE_LOCK_ID = 7_363_209_114;
let postgresTemplate: Promise<string> | undefined;

/**
 * A migrated PostgreSQL database that test databases are copied from (`create database … template`),
 * built once for these migrations and kept on the server: copying takes a fraction of migrating.
 * It is built under another name and renamed when complete, so a run killed midway leaves no
 * half-migrated template behind.
 */
function migratedPostgresTemplate(): Promise<string> {
  return (postgresTemplate ??= withAdmin(async (admin) => {
    const name = `sp_template_${schemaKey}`;
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK_ID]);
    try {
      const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount) return name;
      const building = `${name}_building`;
      await admin.query(`drop database if exists ${building} with (force)`);
      await admin.query(`create database ${building}`);
      const handle = connectPostgres(urlOf(building), createLogger('error'), 1);
      try {
        await migrateToLatest(handle.db);
      } finally {
        await handle.close();
      }
      await admin.query(`alter database ${building} rename to ${name}`);
      return name;
    } finally {
      await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK_ID]);
    }
  }));
}

/**
 * What this process names its databases, `sp_test_<host>_<pid>_<random>`, so that a sweep can tell
 * whose they are (the host: a PostgreSQL server that test runs on several machines share).
 */
const HOST_PREFIX = `sp_test_${new Bun.CryptoHasher('sha256').update(hostname()).digest('hex').slice(0, 6)}_`;
const newDatabaseName = () => `${HOST_PREFIX}${process.pid}_${Math.random().toString(36).slice(2, 10)}`;

function copyDatabase(template: string): Promise<string> {
  const name = newDatabaseName();
  return withAdmin(async (admin) => void (await admin.query(`create database ${name} template ${template}`))).then(() => name);
}

const processIsAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

let swept: Promise<void> | undefined;

/**
 * Drops the databases that test processes no longer running left on the server (a spare, or a
 * run killed midway), once per process. A database still in use is left alone.
 */
function sweepLeftovers(): Promise<void> {
  return (swept ??= withAdmin(async (admin) => {
    const { rows } = await admin.query<{ datname: string }>(`select datname from pg_database where starts_with(datname, $1)`, [HOST_PREFIX]);
    for (const { datname } of rows) {
      const pid = Number(datname.slice(HOST_PREFIX.length).split('_')[0]);
      if (!pid || processIsAlive(pid)) continue;
      await admin.query(`drop database if exists ${datname}`).catch(() => undefined);
    }
  }));
}

/**
 * The next database copied from each template, made while the current test file runs: the copy
 * spends most of its 0.3–0.7 s waiting for the server to write the files to disk, time the test
 * process spends on its tests instead. With `--no-isolate` the next file takes it.
 */
const spares = new Map<string, Promise<string>>();

function takeCopy(template: string): Promise<string> {
  const spare = spares.get(template);
  const next = copyDatabase(template);
  next.catch(() => undefined); // awaited by whoever takes it
  spares.set(template, next);
  return spare ? spare.catch(() => copyDatabase(template)) : copyDatabase(template);
}

/**
 * A PostgreSQL database of its own, on the server DATABASE_URL points at; dropped afterwards. Empty
 * by default (the server or CLI under test migrates it); `migrated: true` copies the migrated template,
 * `copyOf` another test database (by its URL; nothing may be connected to it meanwhile).
 */
export async function createPostgresDatabase(options: { migrated?: boolean; copyOf?: string } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  await sweepLeftovers();
  const name = options.copyOf ? await copyDatabase(new URL(options.copyOf).pathname.slice(1)) : await takeCopy(options.migrated ? await migratedPostgresTemplate() : 'template1');
  return {
    url: urlOf(name),
    drop: () => withAdmin(async (admin) => void (await admin.query(`drop database if exists ${name} with (force)`))),
  };
}

/** Where built templates are kept between test files and processes (`bun test --parallel` isolates each file). */
const TEMPLATES = join(tmpdir(), 'swappoints-test-templates');

/** Builds `path` once: in a directory of its own, renamed into place when complete (another process may win). */
async function buildOnce(path: string, build: (dir: string) => Promise<string>): Promise<string> {
  if (existsSync(path)) return path;
  mkdirSync(TEMPLATES, { recursive: true });
  const building = mkdtempSync(join(TEMPLATES, 'building-'));
  try {
    renameSync(await build(building), path);
  } catch (error) {
    if (!existsSync(path)) throw error; // else another process finished first: use its copy
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return path;
}

let embeddedTemplate: Promise<string> | undefined;

/** A migrated embedded database on disk (a PGlite data directory): copying it takes a fraction of initdb. */
function migratedEmbeddedTemplate(): Promise<string> {
  return (embeddedTemplate ??= buildOnce(join(TEMPLATES, `pgdata-${schemaKey}`), async (dir) => {
    const handle = await connectPGlite(join(dir, 'pgdata'));
    try {
      await migrateToLatest(handle.db);
    } finally {
      await handle.close();
    }
    return join(dir, 'pgdata');
  }));
}

/**
 * Builds every template test files copy, before they run: scripts/run-tests.ts calls it, so that the
 * workers, which start at once, do not each build the same ones side by side.
 */
export async function prepareTemplates(): Promise<void> {
  await Promise.all([migratedEmbeddedTemplate(), process.env.DATABASE_URL ? migratedPostgresTemplate() : undefined]);
}

/**
 * Puts a migrated embedded database in `dataDir` (as `pgdata`, where the server and the CLI look),
 * as if a first start had made it: for tests whose subject is not the first start itself.
 */
export async function seedMigratedDataDir(dataDir: string): Promise<void> {
  cpSync(await migratedEmbeddedTemplate(), join(dataDir, 'pgdata'), { recursive: true });
}

let migratedImage: Promise<DataDirImage> | undefined;

/** An in-memory file system holding a copy of the migrated embedded database, for a PGlite of its own. */
export async function copyOfMigratedPGlite(): Promise<CopiedDataDir> {
  return new CopiedDataDir(await (migratedImage ??= migratedEmbeddedTemplate().then(readDataDir)));
}

/**
 * A fresh, migrated database for one test file (a copy of one migrated once, on either engine),
 * connected: a first query has run, as migrating it would have run one (Kysely connects on first use).
 */
export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const handle = await connectPGlite(undefined, { fs: await copyOfMigratedPGlite() });
    await sql`select 1`.execute(handle.db);
    return { kind, handle, drop: () => handle.close() };
  }
  const { url, drop } = await createPostgresDatabase({ migrated: true });
  const handle = connectPostgres(url, createLogger('error'));
  await sql`select 1`.execute(handle.db);
  return {
    kind,
    handle,
    url,
    drop: async () => {
      await handle.close();
      await drop();
    },
  };
}
