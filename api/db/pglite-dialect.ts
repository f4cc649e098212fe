import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { isPreparable, keepsStatements, PreparedStatements } from './pglite-prepared.ts';

/**
 * A Kysely dialect over an embedded PGlite database.
 *
 * PGlite is a single connection. Kysely runs a transaction as BEGIN, queries and COMMIT on one
 * connection it holds, so this driver hands out that connection to one holder at a time: a
 * transaction can never see another request's statements interleaved with its own.
 * Code inside a transaction must use the transaction handle, never the outer `db`, or it waits forever.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}

  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite);
  }
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

class PGliteDriver implements Driver {
  readonly #connection: PGliteConnection;
  #queue: Promise<void> = Promise.resolve();

  constructor(pglite: PGlite) {
    this.#connection = new PGliteConnection(pglite);
  }

  async init() {}

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const previous = this.#queue;
    this.#queue = new Promise((resolve) => (release = resolve));
    await previous;
    this.#connection.release = release;
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await connection.executeQuery(CompiledQuery.raw(`begin${isolation}`));
  }
  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
  async savepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${name}`));
  }
  async rollbackToSavepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${name}`));
  }
  async releaseSavepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ${name}`));
  }

  async releaseConnection(connection: DatabaseConnection) {
    (connection as PGliteConnection).release();
  }

  async destroy() {
    await this.#queue;
    if (!this.#connection.pglite.closed) await this.#connection.pglite.close();
  }
}

class PGliteConnection implements DatabaseConnection {
  release: () => void = () => {};
  readonly statements: PreparedStatements;

  constructor(readonly pglite: PGlite) {
    this.statements = new PreparedStatements(pglite);
  }

  /** Reads and writes run as prepared statements (pglite-prepared.ts); anything else as PGlite runs it. */
  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const parameters = [...query.parameters];
    let result;
    if (isPreparable(query.sql)) result = await this.statements.run<R>(query.sql, parameters);
    else {
      if (!keepsStatements(query.sql)) this.statements.forget();
      result = await this.pglite.query<R>(query.sql, parameters, { rowMode: 'object' });
    }
    const affected = result.affectedRows;
    return {
      rows: result.rows,
      ...(affected !== undefined && /^\s*(insert|update|delete|merge)/i.test(query.sql)
        ? { numAffectedRows: BigInt(affected) }
        : {}),
    };
  }

  /** PGlite has no server-side cursor over its protocol: rows arrive at once and are yielded in chunks. */
  async *streamQuery<R>(query: CompiledQuery, chunkSize = 1000): AsyncIterableIterator<QueryResult<R>> {
    const { rows } = await this.executeQuery<R>(query);
    for (let i = 0; i < rows.length; i += chunkSize) yield { rows: rows.slice(i, i + chunkSize) };
  }
}
