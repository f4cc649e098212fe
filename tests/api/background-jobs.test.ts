import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startBackgroundJobs } from '#api/jobs/runner.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';

describe('background jobs on one instance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(() => t.close());

  const runsOf = async (name: string) =>
    Number((await t.ctx.db.selectFrom('background_job_runs').select('runs').where('name', '=', name).executeTakeFirst())?.runs ?? 0);

  // A five-second job first runs a second after start, then every five seconds after that run: its
  // second run comes at about 6 s. (Were the interval counted from start, the tick at 5 s would come
  // only 4 s, one claimed period, after the first run, and be refused: the second run slips to 10 s.)
  test('a five-second job runs just after start and again five seconds later, not ten', async () => {
    const started = Date.now();
    const stop = startBackgroundJobs(t.ctx);
    try {
      while ((await runsOf('mail-outbox')) < 2 && Date.now() - started < 15_000) await Bun.sleep(100);
      expect(await runsOf('mail-outbox')).toBe(2);
      expect(Date.now() - started).toBeLessThan(9_000);
      expect(Date.now() - started).toBeGreaterThan(5_900);
    } finally {
      await stop();
    }
  }, 30_000);
});
