import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { drainOutbox, enqueueMail } from '#api/modules/mail/service.ts';
import { signInMail } from '#api/modules/mail/templates.ts';
import { smtpTransport } from '#api/modules/mail/transports.ts';
import { addCustomer } from '#api/modules/customers/service.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { startSmtp, unfold } from '#tests/helpers/smtp.ts';

describe('the log transport on an https PUBLIC_URL', () => {
  const base = { JWT_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/sp-mail-settings', PUBLIC_URL: 'https://swap.myshop.example' };
  test('stops start-up naming MAIL_TRANSPORT and PUBLIC_URL, unless MAIL_LOG_LINKS_IN_PRODUCTION=true says it is meant', async () => {
    const { loadSettings } = await import('#api/settings.ts');
    expect(() => loadSettings(base)).toThrow(/MAIL_TRANSPORT.*PUBLIC_URL.*MAIL_LOG_LINKS_IN_PRODUCTION=true/);
    expect(() => loadSettings({ ...base, MAIL_TRANSPORT: 'log' })).toThrow(/MAIL_TRANSPORT/);
    expect(loadSettings({ ...base, MAIL_LOG_LINKS_IN_PRODUCTION: 'true' }).mailTransport).toBe('log');
    expect(loadSettings({ ...base, MAIL_TRANSPORT: 'smtp', SMTP_URL: 'smtp://mail.example.com:587' }).mailTransport).toBe('smtp');
    expect(loadSettings({ ...base, PUBLIC_URL: 'http://localhost:3000' }).mailTransport).toBe('log');
  });
});

describe.each(databaseKinds())('mail over SMTP (%s)', (kind) => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(kind, { MAIL_TRANSPORT: 'smtp', SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'SwapPoints <no-reply@myshop.example>', SIGNIN_LIMIT_PER_EMAIL: '100' });
    await addCustomer(t.ctx.db, { email: 'asha.rao@example.com' });
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  test('a sign-in link goes out through the SMTP server, from MAIL_FROM, and the outbox marks it sent', async () => {
    // only what this test sends counts: another test may have sent (or queued) mail before
    await t.ctx.mailer.flush();
    const from = smtp.received.length;
    const res = await t.request('POST', '/api/auth/login', { body: { email: 'asha.rao@example.com' } });
    expect(res.status).toBe(202);
    await t.ctx.mailer.flush();
    expect(smtp.received.slice(from)).toHaveLength(1);
    const mail = smtp.received[from];
    expect(mail!.to).toEqual(['asha.rao@example.com']);
    expect(mail!.from).toBe('no-reply@myshop.example');
    const link = /http:\/\/localhost:3000\/verify-email\?token=[\w-]+/.exec(unfold(mail!.data))?.[0];
    expect(link).toBeDefined();
    expect(mail!.data).toContain('Subject: Your SwapPoints sign-in link');
    const row = await t.ctx.db.selectFrom('mail_outbox').selectAll().where('to_email', '=', 'asha.rao@example.com').where('kind', '=', 'sign_in').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row.status).toBe('sent');
    expect(row.sent_at).not.toBeNull();
    // the outbox no longer holds a live link: its link and bodies are blanked once sent
    expect([row.link, row.text_body, row.html_body]).toEqual([null, '', null]);
    expect(JSON.stringify(row)).not.toContain(new URL(link!).searchParams.get('token')!);
    // and the mailed link still signs in
    const verify = await t.request('POST', '/api/auth/verify-email', { body: { email: 'asha.rao@example.com', token: new URL(link!).searchParams.get('token') } });
    expect(verify.status).toBe(200);
  });

  test('other mail keeps its body and link after sending (only sign-in links are keys)', async () => {
    const id = await enqueueMail(t.ctx.db, { to: 'asha.rao@example.com', subject: 'Approved', text: 'Ship it', kind: 'request_approved', link: 'http://localhost:3000/exchange/1' });
    await t.ctx.mailer.flush();
    const row = await t.ctx.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect([row.status, row.text_body, row.link]).toEqual(['sent', 'Ship it', 'http://localhost:3000/exchange/1']);
  });

  test('when the SMTP server is down the message waits in the outbox and goes out once it is back', async () => {
    const down = smtpTransport('smtp://127.0.0.1:1', 'SwapPoints <no-reply@myshop.example>');
    await t.ctx.mailer.flush(); // what other tests queued goes out first: only this message is due below
    // queued without a kick (a sign-in would start the app's own drain, which could lease the
    // message before the dead server is tried), so the one drain below is the only sender
    const id = await enqueueMail(t.ctx.db, signInMail('asha.rao@example.com', 'http://localhost:3000/verify-email?token=t', 15, 'en'));
    const failed = await drainOutbox(t.ctx.db, down, t.ctx.log);
    expect(failed).toEqual({ sent: 0, failed: 1 });
    const waiting = await t.ctx.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(waiting.status).toBe('pending');
    expect(waiting.last_error).toBeTruthy();
    expect(waiting.next_attempt_at.getTime()).toBeGreaterThan(Date.now());

    const before = smtp.received.length;
    await t.ctx.db.updateTable('mail_outbox').set({ next_attempt_at: new Date(0) }).where('id', '=', id).execute();
    await t.ctx.mailer.flush();
    expect(smtp.received.length).toBe(before + 1);
    expect((await t.ctx.db.selectFrom('mail_outbox').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('sent');
  });

  test('two drains at once send each message once (FOR UPDATE SKIP LOCKED)', async () => {
    const before = smtp.received.length;
    for (let i = 0; i < 6; i++) expect((await t.request('POST', '/api/auth/login', { body: { email: 'asha.rao@example.com' } })).status).toBe(202);
    const transport = smtpTransport(`smtp://127.0.0.1:${smtp.port}`, 'SwapPoints <no-reply@myshop.example>');
    await Promise.all([drainOutbox(t.ctx.db, transport, t.ctx.log), drainOutbox(t.ctx.db, transport, t.ctx.log), t.ctx.mailer.flush()]);
    expect(smtp.received.length - before).toBe(6);
    transport.close();
  });
});
