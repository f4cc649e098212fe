import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { SMTPServer } from 'smtp-server';
import { drainOutbox } from '#api/modules/mail/service.ts';
import { smtpTransport } from '#api/modules/mail/transports.ts';
import { addCustomer } from '#api/modules/customers/service.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';

interface Received {
  from: string;
  to: string[];
  data: string;
}

/** A real SMTP server on a local port (no TLS, no auth), keeping what it receives. */
async function startSmtp(): Promise<{ port: number; received: Received[]; stop: () => Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return { port, received, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Quoted-printable soft line breaks split long links; undo them to read the message as a person would. */
const unfold = (data: string) => data.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

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
    const res = await t.request('POST', '/api/auth/login', { body: { email: 'asha.rao@example.com' } });
    expect(res.status).toBe(202);
    await t.ctx.mailer.flush();
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail!.to).toEqual(['asha.rao@example.com']);
    expect(mail!.from).toBe('no-reply@myshop.example');
    const link = await t.lastSignInLink('asha.rao@example.com');
    expect(unfold(mail!.data)).toContain(link);
    expect(mail!.data).toContain('Subject: Your SwapPoints sign-in link');
    const row = await t.ctx.db.selectFrom('mail_outbox').selectAll().where('to_email', '=', 'asha.rao@example.com').executeTakeFirstOrThrow();
    expect(row.status).toBe('sent');
    expect(row.sent_at).not.toBeNull();
  });

  test('when the SMTP server is down the message waits in the outbox and goes out once it is back', async () => {
    const down = smtpTransport('smtp://127.0.0.1:1', 'SwapPoints <no-reply@myshop.example>');
    await t.request('POST', '/api/auth/login', { body: { email: 'asha.rao@example.com' } });
    // the app's own drain may race us; make sure one attempt fails against a dead server
    const id = (await t.ctx.db.selectFrom('mail_outbox').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id;
    await t.ctx.db.updateTable('mail_outbox').set({ status: 'pending', next_attempt_at: new Date(0) }).where('id', '=', id).execute();
    const failed = await drainOutbox(t.ctx.db, down, t.ctx.log);
    expect(failed.failed).toBeGreaterThanOrEqual(1);
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
