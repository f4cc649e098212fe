import {
  PostgresDialect,
  sql,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type PostgresDialectConfig,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * Living with a PostgreSQL that goes away (a restart, a failover, a cut network):
 * - taking a connection waits for the database, with backoff, up to DB_UNAVAILABLE_WAIT_MS: nothing
 *   has run yet, so waiting is always safe, and a restart of a second or two goes unnoticed;
 * - a read (a SELECT built by Kysely or a raw statement marked `readMark`, outside a transaction)
 *   that fails because its connection dropped is run again on fresh connections, waiting the same way: it changes nothing, so
 *   running it twice is safe;
 * - past the wait, the failure is recognised, so the API answers 503 (with Retry-After), not 500.
 * Writes and transactions are never retried once sent: whether a lost COMMIT landed is unknown.
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

/**
 * A raw statement (sql`…`) that only reads says so with this mark after its `select`
 * (sql`select ${readMark} …`), so a dropped connection's run is retried as a built SELECT's is. A raw
 * `select` is not taken for a read by its first word: it may call a function that writes
 * (`select analytics_rollup_rebuild(…)`).
 */
const READ_MARK = '/*read*/';
export const readMark = sql.raw(READ_MARK);

const isRead = (query: CompiledQuery) => query.query.kind === 'SelectQueryNode' || (query.query.kind === 'RawNode' && query.sql.includes(READ_MARK));

const FIRST_PAUSE_MS = 50;
const LONGEST_PAUSE_MS = 1_000;

/**
 * Runs `attempt` until it succeeds, fails for another reason than a lost database, or `waitMs` have
 * passed (then the last failure is thrown; the last try is made at the deadline). Pauses double from
 * 50 ms to 1 s.
 */
export async function waitForDatabase<T>(attempt: () => Promise<T>, waitMs: number, onWait: (error: unknown) => void = () => {}): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    try {
      return await attempt();
    } catch (error) {
      const left = deadline - Date.now();
      if (!isConnectionLost(error) || left <= 0) throw error;
      onWait(error);
      await Bun.sleep(Math.min(pause, left));
    }
  }
}

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
      if (this.inTransaction || !isRead(query) || !isConnectionLost(error)) throw error;
      this.driver.hooks.onRetry(error);
      // not from the pool: its idle connections may be just as dead, their close not yet noticed
      const rows = await waitForDatabase(() => this.driver.hooks.readFresh(query.sql, query.parameters), this.driver.hooks.waitMs);
      return { rows: rows as R[] };
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
  /** DB_UNAVAILABLE_WAIT_MS: how long a request waits for a database that cannot be reached */
  waitMs: number;
  /** told once per request that starts waiting */
  onWait(error: unknown): void;
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
    let told = false;
    const tell = (error: unknown) => {
      if (!told) this.hooks.onWait(error);
      told = true;
    };
    return new RetryingConnection(await waitForDatabase(() => this.inner.acquireConnection(), this.hooks.waitMs, tell), this);
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
