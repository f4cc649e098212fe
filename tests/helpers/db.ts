import pg from 'pg';
import { connectPGlite, connectPostgres, type DatabaseHandle } from '#api/db/connect.ts';
import { migrateToLatest } from '#api/db/migrate.ts';
import { createLogger } from '#api/lib/log.ts';

export type DatabaseKind = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL too when DATABASE_URL is set (CI sets it). */
export function databaseKinds(): DatabaseKind[] {
  return process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TestDatabase {
  kind: DatabaseKind;
  handle: DatabaseHandle;
  /** the PostgreSQL URL of this test's own database (postgres kind only) */
  url?: string;
  drop(): Promise<void>;
}

/** A PostgreSQL database of its own, on the server DATABASE_URL points at; dropped afterwards. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('DATABASE_URL is not set');
  const name = `sp_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** A fresh, migrated database for one test file. */
export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const handle = await connectPGlite(undefined);
    await migrateToLatest(handle.db);
    return { kind, handle, drop: () => handle.close() };
  }
  const { url, drop } = await createPostgresDatabase();
  const handle = connectPostgres(url, createLogger('error'));
  await migrateToLatest(handle.db);
  return {
    kind,
    handle,
    url,
    drop: async () => {
      await handle.close();
      await drop();
    },
  };
}
