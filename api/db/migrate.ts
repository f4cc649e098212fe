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
