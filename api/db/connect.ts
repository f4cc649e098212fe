import { createRequire } from 'node:module';
import type { MemoryFS } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import type pg from 'pg';
import type { Logger } from '#api/lib/log.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import { preparedNameOf } from './prepared.ts';
import { ReadRetryPostgresDialect } from './resilience.ts';
import type { Database } from './types.ts';

export type Db = Kysely<Database>;

/** What the PostgreSQL pool tells of itself (pg.Pool has these), for /metrics. */
export interface PoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

export interface DatabaseHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** the PostgreSQL pool's counts, for /metrics */
  pool?: PoolStats;
  /**
   * PGlite only: the whole data directory as a tarball (gzipped unless asked otherwise), taken
   * between queries: backups keep it
   */
  dumpDataDir?: (compression?: 'gzip' | 'none') => Promise<Blob>;
  close(): Promise<void>;
}

// One reading of values on both engines: bigint ids as numbers, money as exact decimal strings,
// dates as 'yyyy-mm-dd' strings (never shifted by a time zone).
const INT8 = 20;
const EMBEDDED_SHARED_BUFFERS = '8MB';
const NUMERIC = 1700;
const DATE = 1082;

/**
 * Each engine's driver is loaded by its first connection, not by every process: a server on the
 * embedded database never loads pg, one on PostgreSQL never loads PGlite (bench:memory).
 * pg is required, not imported, so that connectPostgres stays synchronous for its callers.
 */
const requireModule = createRequire(import.meta.url);
let postgresDriver: { pg: typeof pg; types: pg.CustomTypesConfig; Client: new (config: pg.ClientConfig) => pg.Client } | undefined;

export interface PostgresTimeouts {
  /** PostgreSQL's statement_timeout: a runaway query is cancelled rather than hold a connection */
  statementTimeoutMs?: number;
  /** idle_in_transaction_session_timeout: a transaction left open (a stalled process) releases its locks */
  idleInTransactionTimeoutMs?: number;
  /** DB_UNAVAILABLE_WAIT_MS: a request that finds the database gone waits this long for it (with backoff) before failing */
  unavailableWaitMs?: number;
}

/** How long a request waits for an unreachable database when the caller does not say (DB_UNAVAILABLE_WAIT_MS's default). */
export const DEFAULT_UNAVAILABLE_WAIT_MS = 5_000;

const POOL_WAIT_MS = 20_000;
const CONNECT_TIMEOUT_MS = 5_000;

function loadPostgresDriver() {
  if (postgresDriver) return postgresDriver;
  const driver = requireModule('pg') as typeof pg;
  const types: pg.CustomTypesConfig = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
      if (oid === INT8) return (value: string) => Number(value);
      if (oid === DATE || oid === NUMERIC) return (value: string) => value;
      return driver.types.getTypeParser(oid, format);
    }) as pg.CustomTypesConfig['getTypeParser'],
  };
  class FastConnectClient extends driver.Client {
    constructor(config: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    }

    /** Kysely calls query(text, values); a marked statement (prepared.ts) runs as a named one. */
    // @ts-expect-error pg's overloads cannot be restated one by one; every call is passed on as it came
    override query(...args: unknown[]) {
      const [text, values] = args;
      const name = typeof text === 'string' && args.length === 2 ? preparedNameOf(text) : undefined;
      if (name) return super.query({ name, text: text as string, values: values as unknown[] });
      return (super.query as (...passed: unknown[]) => unknown).apply(this, args);
    }
  }
  return (postgresDriver = { pg: driver, types, Client: FastConnectClient as unknown as new (config: pg.ClientConfig) => pg.Client });
}

/** PostgreSQL through a pool that survives a server restart: failed queries error, later ones reconnect. */
export function connectPostgres(url: string, log: Logger, max = 10, timeouts: PostgresTimeouts = {}): DatabaseHandle {
  const { pg, types: pgTypes, Client: FastConnectClient } = loadPostgresDriver();
  const pool = new pg.Pool({
    connectionString: url,
    max,
    ...(timeouts.statementTimeoutMs ? { statement_timeout: timeouts.statementTimeoutMs } : {}),
    ...(timeouts.idleInTransactionTimeoutMs ? { idle_in_transaction_session_timeout: timeouts.idleInTransactionTimeoutMs } : {}),
    // A busy pool is waited for (a burst of requests queues), but a database that does not answer
    // a new connection fails fast (the request gets a 503): two limits, where pg-pool has one.
    connectionTimeoutMillis: POOL_WAIT_MS,
    Client: FastConnectClient as unknown as new () => pg.ClientBase, // pg-pool passes its options; its types say it does not
    idleTimeoutMillis: 30_000,
    types: pgTypes,
    application_name: 'swappoints',
  });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', (error) => log.warn('database connection lost', { error: error.message }));
  // Nor may one in use: pg emits 'error' on a checked-out client whose socket dies, and an
  // EventEmitter with no listener for it throws. Its query fails anyway, and the pool drops it.
  pool.on('connect', (client) => client.on('error', () => {}));
  const dialect = new ReadRetryPostgresDialect(
    { pool },
    {
      onRetry: (error) => log.warn('database connection lost during a read; reading again on a fresh connection', { error: (error as Error)?.message }),
      waitMs: timeouts.unavailableWaitMs ?? DEFAULT_UNAVAILABLE_WAIT_MS,
      onWait: (error) => log.warn('database unreachable; waiting for it', { error: (error as Error)?.message, waitMs: timeouts.unavailableWaitMs ?? DEFAULT_UNAVAILABLE_WAIT_MS }),
      async readFresh(text, values) {
        const client = new FastConnectClient({ connectionString: url, types: pgTypes, application_name: 'swappoints' });
        client.on('error', () => {});
        await client.connect();
        try {
          return (await (client as pg.Client).query(text, values as unknown[])).rows;
        } finally {
          client.end().catch(() => {});
        }
      },
    },
  );
  const db = new Kysely<Database>({ dialect });
  return { db, kind: 'postgres', pool, close: once(() => db.destroy()) };
}

/**
 * Whether this PostgreSQL database has ever been migrated (on a first start it has not), asked on
 * one short connection before the server opens its pool. Undefined when the database does not
 * answer: the server's own start then reports why.
 */
export async function postgresMigrated(url: string): Promise<boolean | undefined> {
  const { Client } = loadPostgresDriver();
  const client = new Client({ connectionString: url, application_name: 'swappoints' });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ found: boolean }>(`select to_regclass('kysely_migration') is not null as found`);
    return rows[0]!.found;
  } catch {
    return undefined;
  } finally {
    client.end().catch(() => {});
  }
}

/**
 * The embedded database: PGlite in `dataDir`, or in memory when dataDir is undefined. `fs`, an
 * in-memory file system that already holds a database, starts a new one as a copy of another instead
 * of an empty one: tests copy one migrated database rather than create and migrate each (initdb
 * alone takes seconds).
 */
export async function connectPGlite(dataDir: string | undefined, options: { fs?: MemoryFS } = {}): Promise<DatabaseHandle> {
  const [{ PGlite }, { pg_trgm }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite/contrib/pg_trgm')]);
  const pglite = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(options.fs ? { fs: options.fs } : {}),
    // PostgreSQL's 128 MB default is a shared cache for many connections; PGlite has one, in the
    // server's own memory, and its files sit in the OS page cache anyway: 16 MB kept the server
    // about 120 MB smaller (bench:memory). 8 MB takes off up to 8 MB more, the size of bench:memory's
    // noise, at no cost bench:receive shows on 20,000 requests (CPU per scan alike at 8 and 16 MB).
    postgresqlconf: [`shared_buffers=${EMBEDDED_SHARED_BUFFERS}`],
    extensions: { pg_trgm },
    parsers: { [INT8]: Number, [NUMERIC]: String, [DATE]: String },
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return { db, kind: 'pglite', dumpDataDir: (compression = 'gzip') => pglite.dumpDataDir(compression), close: once(() => db.destroy()) };
}

/** Closing twice (a test and its context both closing) is harmless. */
function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}
