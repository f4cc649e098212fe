import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { enqueueMail } from '#api/modules/mail/service.ts';
import { runCli } from '#tests/helpers/cli.ts';
import { cliTargets } from '#tests/helpers/cli-targets.ts';
import { requestAt, withContext } from './operator-data.ts';

// each test runs the real binary several times: room for a loaded machine
setDefaultTimeout(120_000);

const all = await cliTargets();
afterAll(async () => {
  for (const t of all) await t.cleanup();
});

describe.each(all.map((t) => [t.name, t] as const))('swappoints jobs on the %s database', (_name, target) => {
  const cli = (...args: string[]) => runCli(args, { ...target.env, LOG_LEVEL: 'error' });
  const listed = async (...args: string[]) => {
    const res = await cli('jobs', 'list', '--json', ...args);
    expect(res.stderr).toBe('');
    return JSON.parse(res.stdout) as { id: string; kind: string; state: string; attempts: number; lastError: string | null }[];
  };

  test('jobs list shows every queue (mail, credit pushes, webhooks) with a state; --kind and --failed filter; retry sends a dead mail and a dead credit push once', async () => {
    const made = await withContext(target.env, async (ctx) => {
      await requestAt(ctx, 'credited', { credit: 300 });
      const dead = await enqueueMail(ctx.db, { to: 'asha.rao@example.com', subject: 'Dead', text: 'Gave up', kind: 'test' });
      await ctx.db.updateTable('mail_outbox').set({ status: 'failed', attempts: 8, last_error: 'SMTP 554' }).where('id', '=', dead).execute();
      const retrying = await enqueueMail(ctx.db, { to: 'asha.rao@example.com', subject: 'Later', text: 'Soon', kind: 'test' });
      await ctx.db.updateTable('mail_outbox').set({ attempts: 1, last_error: 'SMTP 421', next_attempt_at: new Date(Date.now() + 3_600_000) }).where('id', '=', retrying).execute();
      const ledger = await ctx.db
        .updateTable('credit_ledger')
        .set({ push_status: 'failed', push_attempts: 10, next_push_at: null, last_push_error: 'HTTP 500' })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { dead: `mail:${dead}`, retrying: `mail:${retrying}`, credit: `credit-push:${ledger.id}` };
    });

    const everything = await listed();
    expect(new Set(everything.map((j) => j.kind))).toEqual(new Set(['mail', 'credit-push']));
    expect(everything.find((j) => j.id === made.dead)).toMatchObject({ kind: 'mail', state: 'dead', attempts: 8, lastError: 'SMTP 554' });
    expect(everything.find((j) => j.id === made.retrying)).toMatchObject({ state: 'retrying', lastError: 'SMTP 421' });
    expect(everything.find((j) => j.id === made.credit)).toMatchObject({ kind: 'credit-push', state: 'dead', attempts: 10, lastError: 'HTTP 500' });

    expect((await listed('--failed')).map((j) => j.id).sort()).toEqual([made.credit, made.dead, made.retrying].sort());
    expect((await listed('--failed', '--kind', 'credit-push')).map((j) => j.id)).toEqual([made.credit]);
    expect(await listed('--kind', 'webhook')).toEqual([]);
    const table = await cli('jobs', 'list', '--failed');
    expect(table.stdout).toMatch(new RegExp(`^${made.dead}\\s.*dead\\s+8\\s.*SMTP 554$`, 'm'));

    const mail = await cli('jobs', 'retry', made.dead, '--json');
    expect(mail.stderr).toBe('');
    expect(mail.code).toBe(0);
    expect(JSON.parse(mail.stdout)).toMatchObject({ id: made.dead, state: 'done', attempts: 9 });
    const credit = await cli('jobs', 'retry', made.credit);
    expect(credit.stderr).toBe('');
    expect(credit.stdout).toBe(`Job ${made.credit}: done after 11 attempts\n`);
    expect((await listed('--failed')).map((j) => j.id)).toEqual([made.retrying]);

    const again = await cli('jobs', 'retry', made.dead);
    expect([again.code, again.stderr]).toEqual([2, 'swappoints: This job has not failed; there is nothing to retry.\n']);
  });

  test('a job id is KIND:ID of a known kind; an unknown one is not found; a bad --kind or --limit is refused', async () => {
    const missing = await cli('jobs', 'retry', 'mail:999999');
    expect([missing.code, missing.stderr]).toEqual([2, 'swappoints: Job not found\n']);
    for (const id of ['12', 'parcel:12', 'mail:x']) {
      const bad = await cli('jobs', 'retry', id);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('ID must be a job id as jobs list prints it: KIND:ID, e.g. mail:12 (kinds: mail, credit-push, webhook, whatsapp, privacy)');
    }
    const kind = await cli('jobs', 'list', '--kind', 'parcel');
    expect([kind.code, kind.stderr]).toEqual([2, 'swappoints: --kind must be one of mail, credit-push, webhook, whatsapp, privacy\n']);
    expect((await cli('jobs', 'list', '--limit', '0')).code).toBe(2);
  });
});
