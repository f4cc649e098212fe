import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { runCli } from '#tests/helpers/cli.ts';
import { cliTargets } from '#tests/helpers/cli-targets.ts';
import { requestAt, withContext } from './operator-data.ts';

setDefaultTimeout(120_000);

const all = await cliTargets();
afterAll(async () => {
  for (const t of all) await t.cleanup();
});

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe.each(all.map((t) => [t.name, t] as const))('swappoints deadlines run on the %s database', (_name, target) => {
  test('--as-of moves the date: a dry run changes nothing, the run closes and reminds, a second run for the date changes nothing; a bad date exits 2', async () => {
    const made = await withContext(target.env, (ctx) => requestAt(ctx, 'approved', { productName: 'Canon 057 Toner', brand: 'Canon' }));

    const dry = await runCli(['deadlines', 'run', '--as-of', day(23), '--dry-run', '--json'], target.env);
    expect([dry.code, dry.stderr]).toEqual([0, '']);
    const planned = JSON.parse(dry.stdout);
    expect(planned).toMatchObject({ dryRun: true });
    expect(planned.closed).toContainEqual({ id: made.id, productName: 'Canon 057 Toner', customerEmail: made.email });

    const run = await runCli(['deadlines', 'run', '--as-of', day(23), '--json'], target.env);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.closed).toContainEqual({ id: made.id, productName: 'Canon 057 Toner', customerEmail: made.email });
    expect(report.asOf).toBe(new Date(`${day(24)}T00:00:00Z`).toISOString());

    const again = await runCli(['deadlines', 'run', '--as-of', day(23)], target.env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Requests closed (not shipped in time): 0');
    expect(again.stdout).not.toContain(made.id);

    const status = await withContext(target.env, (ctx) => ctx.db.selectFrom('exchange_requests').select(['status', 'admin_feedback']).where('id', '=', made.id).executeTakeFirstOrThrow());
    expect(status).toEqual({ status: 'declined', admin_feedback: 'Not shipped within 21 days' });
    const mails = await withContext(target.env, (ctx) => ctx.db.selectFrom('mail_outbox').select('kind').where('to_email', '=', made.email).where('kind', '=', 'request_declined').execute());
    expect(mails).toHaveLength(1);

    const bad = await runCli(['deadlines', 'run', '--as-of', 'next tuesday'], target.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--as-of must be a date');
    const help = await runCli(['deadlines', 'run', '--help'], target.env);
    expect(help.stdout).toContain('--dry-run');
  });
});
