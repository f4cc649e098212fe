import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sql } from 'kysely';
import { openContext } from '#api/host.ts';
import { createLogger } from '#api/lib/log.ts';
import { loadSettings } from '#api/settings.ts';
import { createPostgresDatabase } from '#tests/helpers/db.ts';

const base = { JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/sp-pg-timeouts' };

describe('PostgreSQL timeouts: settings', () => {
  test('default to 30 s per statement, 60 s idle in a transaction and 5 s waiting for an unreachable database; bad values stop start-up naming them', () => {
    expect(loadSettings(base).postgresTimeouts).toEqual({ statementTimeoutMs: 30_000, idleInTransactionTimeoutMs: 60_000, unavailableWaitMs: 5_000 });
    expect(loadSettings({ ...base, DB_UNAVAILABLE_WAIT_MS: '0' }).postgresTimeouts.unavailableWaitMs).toBe(0);
    expect(() => loadSettings({ ...base, DB_UNAVAILABLE_WAIT_MS: '-1' })).toThrow(/DB_UNAVAILABLE_WAIT_MS/);
    expect(() => loadSettings({ ...base, DB_UNAVAILABLE_WAIT_MS: '61000' })).toThrow(/DB_UNAVAILABLE_WAIT_MS/);
    expect(() => loadSettings({ ...base, PG_STATEMENT_TIMEOUT_MS: '0' })).toThrow(/PG_STATEMENT_TIMEOUT_MS/);
    expect(() => loadSettings({ ...base, PG_IDLE_IN_TRANSACTION_TIMEOUT_MS: 'soon' })).toThrow(/PG_IDLE_IN_TRANSACTION_TIMEOUT_MS/);
  });
});

describe.if(Boolean(process.env.DATABASE_URL))('PostgreSQL timeouts on the pool', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let opened: Awaited<ReturnType<typeof openContext>>;
  beforeAll(async () => {
    database = await createPostgresDatabase();
    const settings = loadSettings({ ...base, DATABASE_URL: database.url, PG_STATEMENT_TIMEOUT_MS: '300', PG_IDLE_IN_TRANSACTION_TIMEOUT_MS: '400' });
    // migrating is not bound by the statement timeout
    opened = await openContext(settings, { role: 'cli', log: createLogger('silent') });
  });
  afterAll(async () => {
    await opened.close();
    await database.drop();
  });

  test('every connection carries the settings', async () => {
    const { rows } = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(opened.ctx.db);
    expect(rows[0]!.statement_timeout).toBe('300ms');
    const idle = await sql<{ idle_in_transaction_session_timeout: string }>`show idle_in_transaction_session_timeout`.execute(opened.ctx.db);
    expect(idle.rows[0]!.idle_in_transaction_session_timeout).toBe('400ms');
  });

  test('a statement running past PG_STATEMENT_TIMEOUT_MS is cancelled', async () => {
    await expect(sql`select pg_sleep(2)`.execute(opened.ctx.db)).rejects.toThrow(/statement timeout/);
    expect((await sql<{ one: number }>`select 1 as one`.execute(opened.ctx.db)).rows[0]!.one).toBe(1);
  });

  test('a transaction left idle past PG_IDLE_IN_TRANSACTION_TIMEOUT_MS is ended, releasing its locks', async () => {
    const stalled = opened.ctx.db.transaction().execute(async (trx) => {
      await trx.selectFrom('users').select('id').forUpdate().execute();
      await Bun.sleep(1_000);
      await sql`select 1`.execute(trx);
    });
    await expect(stalled).rejects.toThrow();
  });
});
