import { sql } from 'kysely';
import { Migrator, type MigrationResultSet } from 'kysely/migration';
import { migrations } from '#migrations/index.ts';
import type { Db } from './connect.ts';

export interface MigrationReport {
  applied: string[];
  pending: string[];
}

/** The advisory lock every SwapPoints process takes around migrating (any constant unique to us). */
export const MIGRATION_LOCK_ID = 7_363_209_113;

/**
 * Brings the schema up to date. Safe to run at every start and from several processes at once:
 * the whole run, creating Kysely's own tables included, holds one session-level advisory lock, so
 * instances starting together on an empty database migrate once and the others then find nothing
 * to do.
 */
export async function migrateToLatest(db: Db): Promise<MigrationReport> {
  if (await upToDate(db)) return { applied: [], pending: [] };
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_ID})`.execute(connection);
    // an index built on a large table may take longer than PG_STATEMENT_TIMEOUT_MS allows a request
    await sql`set statement_timeout = 0`.execute(connection);
    try {
      return await migrateHoldingLock(connection);
    } finally {
      await sql`reset statement_timeout`.execute(connection);
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`.execute(connection);
    }
  });
}

/**
 * Whether the database has run exactly this version's migrations, read from Kysely's table in two
 * small queries. Every server start and CLI command asks; the Migrator's own check reads the whole
 * catalogue first (a few hundred ms on the embedded database). Anything else (no table yet, one
 * pending, one this version does not know) goes through the Migrator under the lock as before. No
 * lock is needed to answer yes: a migration's row is committed with the migration itself.
 */
async function upToDate(db: Db): Promise<boolean> {
  const table = await sql<{ found: boolean }>`select to_regclass('kysely_migration') is not null as found`.execute(db);
  if (!table.rows[0]?.found) return false;
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  const expected = Object.keys(migrations);
  return rows.length === expected.length && rows.every((row) => Object.hasOwn(migrations, row.name));
}

async function migrateHoldingLock(db: Db): Promise<MigrationReport> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const result: MigrationResultSet = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName;
    const reason = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`Migration ${failed ?? ''} failed: ${reason}`.replace('  ', ' '));
  }
  return {
    applied: (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName),
    pending: [],
  };
}

export async function migrationStatus(db: Db): Promise<MigrationReport> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const all = await migrator.getMigrations();
  return {
    applied: all.filter((m) => m.executedAt).map((m) => m.name),
    pending: all.filter((m) => !m.executedAt).map((m) => m.name),
  };
}
