import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sql } from 'kysely';
import { claimJobRun, INSTANCE_ID } from '#api/jobs/periodic.ts';
import { connectPostgres, type DatabaseHandle } from '#api/db/connect.ts';
import { createLogger } from '#api/lib/log.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '#tests/helpers/db.ts';

setDefaultTimeout(60_000);

describe.each(databaseKinds())('background job claims (%s)', (kind) => {
  let database: TestDatabase;
  const others: DatabaseHandle[] = [];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    // On PostgreSQL, separate pools stand for separate instances.
    if (database.url) for (let i = 0; i < 3; i++) others.push(connectPostgres(database.url, createLogger('silent'), 4));
  });
  afterAll(async () => {
    for (const other of others) await other.close();
    await database.drop();
  });
  const dbs = () => [database.handle.db, ...others.map((o) => o.db)];

  test('of 20 instances asking at once, one runs the job; nobody again until the period has passed', async () => {
    const HOUR = 3_600_000;
    const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => claimJobRun(dbs()[i % dbs().length]!, 'job-a', HOUR)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await claimJobRun(database.handle.db, 'job-a', HOUR)).toBe(false);
    const row = await database.handle.db.selectFrom('background_job_runs').selectAll().where('name', '=', 'job-a').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ runs: 1, last_instance: INSTANCE_ID });

    const due = await database.handle.db.selectFrom('background_job_runs').select(sql<number>`extract(epoch from next_run_at - now())`.as('s')).executeTakeFirstOrThrow();
    // the next run is due a little less than an hour on (a period shortened for timer jitter)
    expect(Number(due.s)).toBeGreaterThan(3_590);
    expect(Number(due.s)).toBeLessThan(3_600);

    // The hour has passed (moved back rather than waited for): again exactly one of 20 runs it.
    await sql`update background_job_runs set next_run_at = now() - interval '1 second'`.execute(database.handle.db);
    const again = await Promise.all(Array.from({ length: 20 }, (_, i) => claimJobRun(dbs()[i % dbs().length]!, 'job-a', HOUR)));
    expect(again.filter(Boolean)).toHaveLength(1);
    expect(await claimJobRun(database.handle.db, 'job-b', HOUR)).toBe(true);
    const runs = await database.handle.db.selectFrom('background_job_runs').select(['name', 'runs']).orderBy('name').execute();
    expect(runs).toEqual([{ name: 'job-a', runs: 2 }, { name: 'job-b', runs: 1 }]);
  });
});
