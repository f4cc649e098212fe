import {
  PostgresDialect,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type PostgresDialectConfig,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * Living with a PostgreSQL that goes away (a restart, a failover, a cut network):
 * - a read built by Kysely (a SELECT, outside a transaction) that fails because its connection
 *   dropped is run once more, on a fresh connection: it changes nothing, so running it twice is safe;
 * - a failure to reach the database at all is recognised, so the API answers 503, not 500.
 * Writes and transactions are never retried here: whether a lost COMMIT landed is unknown.
 */

/** SQLSTATEs of a connection that is gone: class 08, and the server shutting down or starting. */
const GONE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
const GONE_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ENOTCONN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);
const GONE_MESSAGES = /connection terminated|not queryable|terminating connection|timeout exceeded when trying to connect|connection error|socket hang up|Client was closed/i;

/** True when the error says the connection to the database was lost or could not be made. */
export function isConnectionLost(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (GONE_CODES.has(code) || GONE_STATES.has(code) || code.startsWith('08'))) return true;
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && GONE_MESSAGES.test(message);
}

/** The API's answer when the database cannot be reached (503). */
export const DATABASE_UNAVAILABLE = 'The service is briefly unavailable. Please try again in a moment.';

const isBuiltRead = (query: CompiledQuery) => query.query.kind === 'SelectQueryNode';

class RetryingConnection implements DatabaseConnection {
  inTransaction = false;
  constructor(
    readonly inner: DatabaseConnection,
    private readonly driver: ReadRetryDriver,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return await this.inner.executeQuery<R>(query);
    } catch (error) {
      if (this.inTransaction || !isBuiltRead(query) || !isConnectionLost(error)) throw error;
      this.driver.hooks.onRetry(error);
      // not from the pool: its idle connections may be just as dead, their close not yet noticed
      return { rows: (await this.driver.hooks.readFresh(query.sql, query.parameters)) as R[] };
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

export interface RetryHooks {
  /** runs a read on a new connection of its own, closed afterwards; resolves with its rows */
  readFresh(sql: string, parameters: readonly unknown[]): Promise<unknown[]>;
  onRetry(error: unknown): void;
}

class ReadRetryDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    readonly hooks: RetryHooks,
  ) {}

  init() {
    return this.inner.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    return new RetryingConnection(await this.inner.acquireConnection(), this);
  }
  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    const c = connection as RetryingConnection;
    c.inTransaction = true;
    await this.inner.beginTransaction(c.inner, settings);
  }
  async commitTransaction(connection: DatabaseConnection) {
    const c = connection as RetryingConnection;
    try {
      await this.inner.commitTransaction(c.inner);
    } finally {
      c.inTransaction = false;
    }
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    const c = connection as RetryingConnection;
    try {
      await this.inner.rollbackTransaction(c.inner);
    } finally {
      c.inTransaction = false;
    }
  }
  async savepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]) {
    await this.inner.savepoint!((connection as RetryingConnection).inner, name, compile);
  }
  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['rollbackToSavepoint']>>[2]) {
    await this.inner.rollbackToSavepoint!((connection as RetryingConnection).inner, name, compile);
  }
  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['releaseSavepoint']>>[2]) {
    await this.inner.releaseSavepoint!((connection as RetryingConnection).inner, name, compile);
  }
  async releaseConnection(connection: DatabaseConnection) {
    await this.inner.releaseConnection((connection as RetryingConnection).inner);
  }
  destroy() {
    return this.inner.destroy();
  }
}

/** Kysely's PostgreSQL dialect, with a dropped connection's read retried once on a fresh one. */
export class ReadRetryPostgresDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    private readonly hooks: RetryHooks,
  ) {
    super(config);
  }
  override createDriver(): Driver {
    return new ReadRetryDriver(super.createDriver(), this.hooks);
  }
}
