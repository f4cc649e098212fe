import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Logger } from '#api/lib/log.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import type { Database } from './types.ts';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

// One reading of values on both engines: bigint ids as numbers, money as exact decimal strings,
// dates as 'yyyy-mm-dd' strings (never shifted by a time zone).
const INT8 = 20;
const NUMERIC = 1700;
const DATE = 1082;

const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8) return (value: string) => Number(value);
    if (oid === DATE || oid === NUMERIC) return (value: string) => value;
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/** PostgreSQL through a pool that survives a server restart: failed queries error, later ones reconnect. */
export function connectPostgres(url: string, log: Logger, max = 10): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    types: pgTypes,
    application_name: 'swappoints',
  });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', (error) => log.warn('database connection lost', { error: error.message }));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: 'postgres', close: once(() => db.destroy()) };
}

/** The embedded database: PGlite in `dataDir`, or in memory when dataDir is undefined. */
export async function connectPGlite(dataDir: string | undefined): Promise<DatabaseHandle> {
  const pglite = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    extensions: { pg_trgm },
    parsers: { [INT8]: Number, [NUMERIC]: String, [DATE]: String },
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return { db, kind: 'pglite', close: once(() => db.destroy()) };
}

/** Closing twice (a test and its context both closing) is harmless. */
function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}
