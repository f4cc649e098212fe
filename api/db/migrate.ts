import { Migrator, type MigrationResultSet } from 'kysely/migration';
import { migrations } from '#migrations/index.ts';
import type { Db } from './connect.ts';

export interface MigrationReport {
  applied: string[];
  pending: string[];
}

/** Brings the schema up to date. Safe to run at every start and from several processes at once. */
export async function migrateToLatest(db: Db): Promise<MigrationReport> {
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
