import { cpSync, rmSync } from 'node:fs';
import { releaseEmbedded, tempDataDir } from './cli.ts';
import { createPostgresDatabase, seedMigratedDataDir } from './db.ts';

/** A database the CLI tests run `swappoints` against: pass `env` to runCli. */
export interface CliTarget {
  name: 'embedded' | 'postgres';
  env: Record<string, string | undefined>;
  cleanup(): Promise<void>;
}

/**
 * A fresh database of one kind: the embedded one in a new DATA_DIR, or a new PostgreSQL database;
 * migrated, with no data (copies of a migrated template: creating each from nothing takes seconds),
 * or with `empty`, not even migrated (an empty DATA_DIR, an empty database: what a restore fills).
 */
export async function cliTarget(name: CliTarget['name'], options: { empty?: boolean } = {}): Promise<CliTarget> {
  const dataDir = tempDataDir();
  if (name === 'embedded') {
    if (!options.empty) await seedMigratedDataDir(dataDir);
    const env = { DATA_DIR: dataDir, DATABASE_URL: undefined };
    return { name, env, cleanup: async () => removeDataDir(env) };
  }
  const pg = await createPostgresDatabase({ migrated: !options.empty });
  return {
    name,
    env: { DATA_DIR: dataDir, DATABASE_URL: pg.url },
    cleanup: async () => {
      await pg.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Closes the embedded database this process may keep open in `env`'s DATA_DIR, and removes the directory. */
async function removeDataDir(env: CliTarget['env']): Promise<void> {
  await releaseEmbedded(env);
  rmSync(env.DATA_DIR!, { recursive: true, force: true });
}

/**
 * A copy of `source` as it is now (its DATA_DIR, and its PostgreSQL database when it has one): for a
 * test that changes data a file's other tests share, at a fraction of seeding the same data again.
 * The embedded database this process keeps open is closed first, so its files are whole.
 */
export async function cloneTarget(source: CliTarget): Promise<CliTarget> {
  await releaseEmbedded(source.env);
  const dataDir = tempDataDir();
  cpSync(source.env.DATA_DIR!, dataDir, { recursive: true });
  if (source.name === 'embedded') {
    const env = { ...source.env, DATA_DIR: dataDir };
    return { name: source.name, env, cleanup: async () => removeDataDir(env) };
  }
  const pg = await createPostgresDatabase({ copyOf: source.env.DATABASE_URL });
  return {
    name: source.name,
    env: { ...source.env, DATA_DIR: dataDir, DATABASE_URL: pg.url },
    cleanup: async () => {
      await pg.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The kinds the CLI tests run on: embedded, and PostgreSQL too when DATABASE_URL is set. */
export function cliKinds(): CliTarget['name'][] {
  return process.env.DATABASE_URL ? ['embedded', 'postgres'] : ['embedded'];
}

/** The embedded database in a fresh DATA_DIR; and a fresh PostgreSQL database when DATABASE_URL is set. */
export async function cliTargets(): Promise<CliTarget[]> {
  return Promise.all(cliKinds().map((kind) => cliTarget(kind)));
}

/** Runs `body` against a fresh database of `name`'s kind, for a test whose counts need an empty one. */
export async function withFreshTarget<T>(name: CliTarget['name'], body: (target: CliTarget) => Promise<T>): Promise<T> {
  const target = await cliTarget(name);
  try {
    return await body(target);
  } finally {
    await target.cleanup();
  }
}
