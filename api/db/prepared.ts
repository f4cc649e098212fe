import { sql } from 'kysely';

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

/** The statement name for a marked query: its mark and a hash of its text, which differs by variant. */
export function preparedNameOf(text: string): string | undefined {
  const match = MARK.exec(text);
  return match ? `${match[1]}-${Bun.hash(text).toString(36)}` : undefined;
}
