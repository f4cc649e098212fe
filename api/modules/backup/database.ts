import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';
import { AppError } from '#api/lib/errors.ts';

/**
 * PostgreSQL's own tools do the dump and the restore: pg_dump takes one consistent snapshot while
 * the server keeps serving, pg_restore loads it. Without them a PostgreSQL backup cannot be made.
 */
function tool(name: 'pg_dump' | 'pg_restore'): string {
  const path = Bun.which(name);
  if (!path) {
    throw new AppError(
      500,
      `${name} is not installed, and a PostgreSQL database is backed up and restored with it: install the PostgreSQL client tools of your server's version (Debian/Ubuntu: apt-get install postgresql-client) and try again.`,
    );
  }
  return path;
}

/** Runs the tool on `databaseUrl`; its password goes in PGPASSWORD, not on a command line others can read. */
async function run(name: 'pg_dump' | 'pg_restore', databaseUrl: string, args: string[], input?: Uint8Array): Promise<Uint8Array> {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  const env = { ...process.env, ...(password ? { PGPASSWORD: password } : {}) };
  const child = Bun.spawn([tool(name), ...args, `--dbname=${url.toString()}`], { env, stdin: input ?? 'ignore', stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code] = await Promise.all([new Response(child.stdout).bytes(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new AppError(500, `${name} failed (exit ${code}): ${err.trim().split('\n').slice(-3).join(' ').replace(/:\/\/[^@\s]*@/g, '://…@')}`);
  return out;
}

/** pg_dump in its custom format: one snapshot, compressed. */
export const pgDump = (databaseUrl: string) => run('pg_dump', databaseUrl, ['--format=custom', '--no-owner', '--no-privileges']);

/** pg_restore into the database at `databaseUrl`, stopping at the first error. */
export const pgRestore = (databaseUrl: string, dump: Uint8Array) =>
  run('pg_restore', databaseUrl, ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction'], dump);

/** The newest migration a database has, or null for one never migrated. */
export async function latestMigration(db: Db): Promise<string | null> {
  const found = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(db).catch(() => ({ rows: [] }));
  return found.rows[0]?.name ?? null;
}
