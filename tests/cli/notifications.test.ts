import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { enqueueMail } from '#api/modules/mail/service.ts';
import { updateProfile } from '#api/modules/users/service.ts';
import { queueWhatsApp } from '#api/modules/whatsapp/service.ts';
import { runCli } from '#tests/helpers/cli.ts';
import { cliTargets } from '#tests/helpers/cli-targets.ts';
import { uniqueEmail, user, withContext } from './operator-data.ts';

setDefaultTimeout(120_000);

const all = await cliTargets();
afterAll(async () => {
  for (const t of all) await t.cleanup();
});

// on, but pointed at nothing: these tests only queue, never send
const WHATSAPP = { WHATSAPP_TOKEN: 't', WHATSAPP_PHONE_NUMBER_ID: '1065403522', WHATSAPP_APP_SECRET: 's', WHATSAPP_VERIFY_TOKEN: 'verify-me', WHATSAPP_API_URL: 'http://127.0.0.1:9/v21.0' };

describe.each(all.map((t) => [t.name, t] as const))('swappoints notifications on the %s database', (_name, target) => {
  const cli = (...args: string[]) => runCli(args, { ...target.env, ...WHATSAPP, LOG_LEVEL: 'error' });

  test('notifications list shows mail and WhatsApp newest first; --channel keeps one; jobs list knows the whatsapp kind; a bad channel is exit 2', async () => {
    const made = await withContext({ ...target.env, ...WHATSAPP }, async (ctx) => {
      const customer = await user(ctx, uniqueEmail('wa'));
      await updateProfile(ctx.db, customer.id, { phone: '9812345678', whatsapp: true, language: 'hi' });
      const mail = await enqueueMail(ctx.db, { to: customer.email, subject: 'Approved', text: 'Ship it', kind: 'request_approved' });
      const whatsapp = await queueWhatsApp(ctx.db, ctx, { userId: customer.id, template: 'request_approved', params: { product: 'Toner (HP)', shipTo: 'Hub, Pune', link: 'http://x/exchange/1' } });
      return { mail: `mail:${mail}`, whatsapp: `whatsapp:${whatsapp}` };
    });

    const both = await cli('notifications', 'list', '--json');
    expect(both.code).toBe(0);
    const listed = JSON.parse(both.stdout) as { id: string; channel: string; to: string; kind: string; status: string }[];
    expect(listed.slice(0, 2).map((n) => n.id)).toEqual([made.whatsapp, made.mail]);
    expect(listed[0]).toMatchObject({ channel: 'whatsapp', to: '+919812345678', kind: 'request_approved', status: 'pending' });

    const onlyWhatsApp = JSON.parse((await cli('notifications', 'list', '--channel', 'whatsapp', '--json')).stdout) as { channel: string }[];
    expect(new Set(onlyWhatsApp.map((n) => n.channel))).toEqual(new Set(['whatsapp']));
    const onlyMail = JSON.parse((await cli('notifications', 'list', '--channel', 'mail', '--json')).stdout) as { channel: string }[];
    expect(new Set(onlyMail.map((n) => n.channel))).toEqual(new Set(['mail']));

    const table = await cli('notifications', 'list', '--channel', 'whatsapp');
    expect(table.stdout).toContain('DELIVERY');
    expect(table.stdout).toContain(made.whatsapp);

    const jobs = JSON.parse((await cli('jobs', 'list', '--kind', 'whatsapp', '--json')).stdout) as { id: string; state: string }[];
    expect(jobs.find((j) => j.id === made.whatsapp)).toMatchObject({ state: 'pending' });

    const refused = await cli('notifications', 'list', '--channel', 'sms');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--channel must be one of mail, whatsapp');
  });
});
