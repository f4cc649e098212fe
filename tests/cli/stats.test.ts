import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { todayIn } from '#api/modules/analytics/rules.ts';
import { runCli } from '#tests/helpers/cli.ts';
import { cliTargets } from '#tests/helpers/cli-targets.ts';
import { requestAt, withContext } from './operator-data.ts';

// each test runs the real binary several times: room for a loaded machine
setDefaultTimeout(120_000);

const all = await cliTargets();
afterAll(async () => {
  for (const t of all) await t.cleanup();
});

describe.each(all.map((t) => [t.name, t] as const))('swappoints stats on the %s database', (_name, target) => {
  test('prints the figures of the last 30 days, or since a date; --json as the API returns them; bad dates exit 2', async () => {
    await withContext(target.env, async (ctx) => {
      await requestAt(ctx, 'completed', { credit: 250, brand: 'Canon', productName: 'Canon 057 Toner' });
      await requestAt(ctx, 'declined');
      await requestAt(ctx, 'pending');
    });
    const today = todayIn('Asia/Kolkata');
    const json = await runCli(['stats', '--since', today, '--json'], target.env);
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    const figures = JSON.parse(json.stdout);
    expect(figures).toMatchObject({
      from: today,
      to: today,
      bucket: 'day',
      credit: { total: 250, credits: 1, bonus: 0, failedPushes: 0, series: [{ start: today, amount: 250, credits: 1 }] },
      requests: { received: 3, approved: 1, declined: 1, open: 1, cancelled: 0, deleted: 0, approvalRate: 0.5 },
      timeToCredit: { credited: 1 },
      topBrands: [{ name: 'Canon', credit: 250, requests: 1 }],
      topProducts: [{ name: 'Canon 057 Toner', credit: 250, requests: 1 }],
    });

    const text = await runCli(['stats'], target.env);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`to ${today} (Asia/Kolkata)`);
    expect(text.stdout).toContain('Credit issued      ₹250.00 in 1 credits (bonus ₹0.00)');
    expect(text.stdout).toContain('Requests received  3: 1 approved, 1 declined, 0 cancelled, 0 deleted, 1 still open');
    expect(text.stdout).toContain('Approval rate      50%');
    expect(text.stdout).toMatch(/Top brands by credit:\nNAME +CREDIT +REQUESTS\nCanon +₹250\.00 +1\n/);
    expect(text.stdout.split('\n').filter((l) => /^\d{4}-\d{2}-\d{2} /.test(l))).toHaveLength(30);

    for (const args of [['stats', '--since', '2026-13-01'], ['stats', '--since', '2026-11-20', '--until', '2026-11-01'], ['stats', '--since', '2020-01-01']]) {
      const bad = await runCli(args, target.env);
      expect(bad.code, args.join(' ')).toBe(2);
      expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
