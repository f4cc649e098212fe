import { rmSync } from 'node:fs';
import { tempDataDir } from './cli.ts';
import { createPostgresDatabase } from './db.ts';

/** A database the CLI tests run `swappoints` against: pass `env` to runCli. */
export interface CliTarget {
  name: 'embedded' | 'postgres';
  env: Record<string, string | undefined>;
  cleanup(): Promise<void>;
}

/** The embedded database in a fresh DATA_DIR; and a fresh PostgreSQL database when DATABASE_URL is set. */
export async function cliTargets(): Promise<CliTarget[]> {
  const dataDir = tempDataDir();
  const list: CliTarget[] = [
    { name: 'embedded', env: { DATA_DIR: dataDir, DATABASE_URL: undefined }, cleanup: async () => rmSync(dataDir, { recursive: true, force: true }) },
  ];
  if (process.env.DATABASE_URL) {
    const pg = await createPostgresDatabase();
    const pgDir = tempDataDir();
    list.push({
      name: 'postgres',
      env: { DATA_DIR: pgDir, DATABASE_URL: pg.url },
      cleanup: async () => {
        await pg.drop();
        rmSync(pgDir, { recursive: true, force: true });
      },
    });
  }
  return list;
}
