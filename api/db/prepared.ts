import { createQueryId, sql, type CompiledQuery, type RootOperationNode } from 'kysely';
import type { Db } from './connect.ts';

/**
 * Statements run on most requests (the session check, the quote, the analytics reads) are prepared
 * once per PostgreSQL connection instead of parsed and planned on every run: that was about a third
 * of the database's time for an analytics request. A query carries `preparedMark(name)` at its
 * front (a comment; Kysely builders put it there with `.modifyFront`), and the pool's client
 * (connect.ts) runs it as a named statement. PGlite reads the comment as a comment.
 *
 * Only statements whose columns are named (no `select *`) are marked: a prepared statement fails
 * if a migration changes the columns it returns.
 */
const MARK = /^\s*(?:select\s+)?\/\*prepared:([a-z0-9-]+)\*\//i;

export const preparedMark = (name: string) => sql.raw(`/*prepared:${name}*/`);

/** Names already worked out, by statement text: every query passes here, and most texts recur. */
const names = new Map<string, string | null>();
const NAMES_KEPT = 2_000;

/** The statement name for a marked query: its mark and a hash of its text, which differs by variant. */
export function preparedNameOf(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined) {
    const match = MARK.exec(text);
    name = match ? `${match[1]}-${Bun.hash(text).toString(36)}` : null;
    // texts built with a varying number of values (`in ($1, $2, …)`) are many: keep the map bounded
    if (names.size >= NAMES_KEPT) names.clear();
    names.set(text, name);
  }
  return name ?? undefined;
}

/** What a parameter of a statement holds when it is compiled, so that its place can be found. */
const PLACEHOLDER = '\u0000statement-parameter:';

type Slot = { name: string } | { value: unknown };

/**
 * A statement Kysely builds and compiles once, then runs with each call's values: building and
 * compiling a query was a tenth of a small API call's JavaScript time. `build` receives each named
 * parameter as a placeholder to use where a value goes. Both dialects compile the same PostgreSQL
 * text, so one compiled text serves them; a built SELECT stays one (a dropped connection's read is
 * retried, resilience.ts).
 */
export function compiledOnce<P extends string, Row>(params: readonly P[], build: (db: Db, values: Record<P, never>) => { compile(db: Db): CompiledQuery<Row> }) {
  let compiled: { sql: string; query: RootOperationNode; slots: Slot[] } | undefined;
  return async (db: Db, values: Record<P, unknown>): Promise<Row[]> => {
    if (!compiled) {
      const placeholders = Object.fromEntries(params.map((name) => [name, `${PLACEHOLDER}${name}`])) as Record<P, never>;
      const query = build(db, placeholders).compile(db);
      const slots = query.parameters.map((v): Slot => (typeof v === 'string' && v.startsWith(PLACEHOLDER) ? { name: v.slice(PLACEHOLDER.length) } : { value: v }));
      compiled = { sql: query.sql, query: query.query, slots };
    }
    const parameters = compiled.slots.map((slot) => ('name' in slot ? values[slot.name as P] : slot.value));
    const result = await db.executeQuery<Row>({ sql: compiled.sql, query: compiled.query, queryId: createQueryId(), parameters });
    return result.rows;
  };
}
