import { parse, protocol, type PGlite, type Results } from '@electric-sql/pglite';
import { concatBytes } from '#api/lib/bytes.ts';

/**
 * Named prepared statements for PGlite. `PGlite.query` sends each statement as an unnamed one, so
 * PostgreSQL parses and plans it on every run: for the short reads a page makes (a row by id, a
 * count), that was two thirds of each query's CPU (a row by id: ~350 µs, ~70 µs prepared), and
 * the embedded database was a third of a data page's render. Here a statement's text is parsed
 * once under a name of its own, and each run only binds its values and executes, in one protocol
 * round trip. Results are read by PGlite's own parsers, so rows come back as `query` gives them.
 *
 * PostgreSQL keeps a prepared statement's result columns: a migration that changes a table would
 * make a `select *` prepared before it fail. Any statement that is neither a read or write nor
 * transaction control (a migration's DDL, a SET) closes every prepared statement first
 * (`PGliteConnection` calls `forget`).
 */

/** Statements a run can prepare: reads and writes (a leading comment, such as a `prepared:` mark, is allowed). */
const PREPARABLE = /^\s*(?:\/\*[^]*?\*\/\s*)*(?:select|insert|update|delete|with)\b/i;
/** Statements that change no schema and keep prepared statements valid. */
const TRANSACTION_CONTROL = /^\s*(?:begin|start\s+transaction|commit|end|rollback|savepoint|release|set\s+(?:local\s+)?transaction)\b/i;
/** At most this many statements stay prepared; the least recently used is closed past it. */
export const MAX_PREPARED_STATEMENTS = 256;

const OPTIONS = { syncToFs: false };
const { serialize } = protocol;

/** Statement names are unique in the process: two sets over one PGlite never take the same one. */
let statementCounter = 0;

export const isPreparable = (text: string) => PREPARABLE.test(text);
export const keepsStatements = (text: string) => PREPARABLE.test(text) || TRANSACTION_CONTROL.test(text);

interface Statement {
  name: string;
  /** the parameters' type oids, as PostgreSQL inferred them: each value is serialized for its type */
  types: number[];
}

export class PreparedStatements {
  /** by statement text, least recently used first */
  readonly #byText = new Map<string, Statement>();
  /** statements no longer used, closed before the next run */
  #stale: string[] = [];

  constructor(private readonly pglite: PGlite) {}

  get size(): number {
    return this.#byText.size;
  }

  /** Runs `text` with `params` as a prepared statement, preparing it on first use. */
  run<R>(text: string, params: unknown[]): Promise<Results<R>> {
    return this.pglite.runExclusive(async () => {
      await this.#closeStale();
      const statement = this.#byText.get(text) ?? (await this.#prepare(text));
      // most recently used last
      this.#byText.delete(text);
      this.#byText.set(text, statement);
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const serializer = this.pglite.serializers[statement.types[i]!];
        return serializer ? serializer(value) : String(value);
      });
      const message = concatBytes([
        serialize.bind({ statement: statement.name, values: values as (string | null)[] }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]);
      const messages = await withStatement(text, params, () => this.pglite.execProtocolStream(message, OPTIONS));
      return parse.parseResults(messages, this.pglite.parsers, { rowMode: 'object' })[0] as Results<R>;
    });
  }

  /** Closes every prepared statement (at the next run): the schema may have changed. */
  forget(): void {
    for (const statement of this.#byText.values()) this.#stale.push(statement.name);
    this.#byText.clear();
  }

  async #prepare(text: string): Promise<Statement> {
    const name = `sp_${++statementCounter}`;
    const message = concatBytes([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]);
    const messages = await withStatement(text, [], () => this.pglite.execProtocolStream(message, OPTIONS));
    const statement = { name, types: parse.parseDescribeStatementResults(messages) };
    if (this.#byText.size >= MAX_PREPARED_STATEMENTS) {
      const [oldest, { name: evicted }] = this.#byText.entries().next().value!;
      this.#byText.delete(oldest);
      this.#stale.push(evicted);
    }
    return statement;
  }

  async #closeStale(): Promise<void> {
    if (this.#stale.length === 0) return;
    const names = this.#stale;
    this.#stale = [];
    // Closing is not refused inside a failed transaction; if it ever fails, the names only stay taken.
    await this.pglite
      .execProtocolStream(concatBytes([...names.map((name) => serialize.close({ type: 'S', name })), serialize.sync()]), OPTIONS)
      .catch(() => undefined);
  }
}

/** A database error names its statement, as PGlite's own `query` does (logs show which one failed). */
async function withStatement<T>(text: string, params: unknown[], run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error && typeof error === 'object' && 'code' in error) Object.assign(error, { query: text, params });
    throw error;
  }
}

