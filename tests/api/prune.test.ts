import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { sql } from 'kysely';
import { startBackgroundJobs } from '#api/jobs/runner.ts';
import { hashToken } from '#api/lib/tokens.ts';
import { enqueueMail } from '#api/modules/mail/service.ts';
import { pruneExpiredRows } from '#api/jobs/prune.ts';
import { recordAccess } from '#api/modules/access-log/service.ts';
import { loadSettings } from '#api/settings.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';

describe.each(databaseKinds())('pruning what only grows (%s)', (kind) => {
  let t: TestApp;
  let userId: string;
  let round = 0;
  beforeAll(async () => {
    t = await createTestApp(kind, { MAIL_RETENTION_DAYS: '30' });
  });
  afterAll(() => t.close());
  // each test starts from empty tables (a database of its own would cost a second), so they hold in any order
  beforeEach(async () => {
    round = 0;
    await sql`truncate users, sessions, sign_in_tokens, rate_limits, mail_outbox, whatsapp_outbox, whatsapp_attempts, privacy_access_log cascade`.execute(t.ctx.db);
    userId = (await t.ctx.db.insertInto('users').values({ email: 'asha.rao@example.com', name: null, shop_customer_id: null }).returning('id').executeTakeFirstOrThrow()).id;
  });

  async function seed() {
    const db = t.ctx.db;
    const session = (values: Record<string, unknown>) =>
      db.insertInto('sessions').values({ user_id: userId, expires_at: new Date(Date.now() + 3600_000), ip: null, user_agent: null, ...values }).returning('id').executeTakeFirstOrThrow();
    const live = await session({});
    const expired = await session({});
    await sql`update sessions set created_at = now() - interval '25 hours', expires_at = now() - interval '1 hour' where id = ${expired.id}`.execute(db);
    await session({ last_seen_at: new Date(Date.now() - 9 * 3600_000) });
    await session({ revoked_at: new Date() });
    round++;
    const token = async (name: string, agoMinutes: { created: number; expires: number; used?: number }) => {
      await db.insertInto('sign_in_tokens').values({ email: 'asha.rao@example.com', token_hash: hashToken(`${name}-${round}`), next_path: null, requested_ip: null, expires_at: new Date(Date.now() + 600_000) }).execute();
      await sql`update sign_in_tokens set created_at = now() - make_interval(mins => ${agoMinutes.created}), expires_at = now() - make_interval(mins => ${agoMinutes.expires}),
        used_at = ${agoMinutes.used === undefined ? null : sql`now() - make_interval(mins => ${agoMinutes.used})`} where token_hash = ${hashToken(`${name}-${round}`)}`.execute(db);
    };
    await token('fresh', { created: 0, expires: -10 });
    await token('just-used', { created: 60, expires: 30, used: 54 }); // kept a day: a second click still says "already used"
    await token('used-long-ago', { created: 1800, expires: 1740, used: 1770 });
    await token('expired-long-ago', { created: 2940, expires: 2880 });
    await db.insertInto('rate_limits').values([
      { key: `signin:ip:old-${round}`, window_start: new Date(Date.now() - 2 * 86_400_000), hits: 3 },
      { key: `signin:ip:now-${round}`, window_start: new Date(), hits: 1 },
    ]).execute();
    const mail = async (status: 'sent' | 'pending' | 'failed', sentDaysAgo: number | null) => {
      const id = await enqueueMail(db, { to: 'asha.rao@example.com', subject: `${status} ${sentDaysAgo}`, text: 'x', kind: 'request_approved' });
      await db.updateTable('mail_outbox').set({ status, sent_at: sentDaysAgo === null ? null : new Date(Date.now() - sentDaysAgo * 86_400_000), next_attempt_at: new Date(Date.now() + 86_400_000) }).where('id', '=', id).execute();
    };
    await mail('sent', 31);
    await mail('sent', 29);
    await mail('failed', null);
    await mail('pending', null);
    for (const days of [366, 364]) {
      await recordAccess(db, { actorEmail: 'admin@example.com', action: 'request_detail', subjectEmail: `looked-${days}@example.com` });
      await sql`update privacy_access_log set created_at = now() - make_interval(days => ${days}) where subject_email = ${`looked-${days}@example.com`}`.execute(db);
    }
    return { liveSession: live.id };
  }

  const remaining = async () => ({
    sessions: (await t.ctx.db.selectFrom('sessions').select('id').execute()).map((r) => r.id),
    tokens: (await t.ctx.db.selectFrom('sign_in_tokens').select('token_hash').execute()).map((r) => r.token_hash).sort(),
    rateLimits: (await t.ctx.db.selectFrom('rate_limits').select('key').execute()).map((r) => r.key),
    mail: (await t.ctx.db.selectFrom('mail_outbox').select('subject').orderBy('id').execute()).map((r) => r.subject),
    accessLog: (await t.ctx.db.selectFrom('privacy_access_log').select('subject_email').execute()).map((r) => r.subject_email),
  });

  test('expired, idle and revoked sessions, spent links, old rate-limit windows, sent mail past MAIL_RETENTION_DAYS and access-log records older than a year go; the rest stays', async () => {
    const { liveSession } = await seed();
    const report = await pruneExpiredRows(t.ctx);
    expect(report).toEqual({ sessions: 3, signInTokens: 2, sentMail: 1, sentWhatsApp: 0, accessLog: 1 });
    expect(await remaining()).toEqual({
      sessions: [liveSession],
      tokens: [hashToken('fresh-1'), hashToken('just-used-1')].sort(),
      rateLimits: ['signin:ip:now-1'],
      mail: ['sent 29', 'failed null', 'pending null'],
      accessLog: ['looked-364@example.com'],
    });
  });

  test('both outboxes (mail, WhatsApp) lose their messages sent past MAIL_RETENTION_DAYS, a message with its attempts; recent, unsent and failed ones stay', async () => {
    const db = t.ctx.db;
    const mail = async (subject: string, status: 'sent' | 'pending' | 'failed', sentDaysAgo: number | null) => {
      const id = await enqueueMail(db, { to: 'asha.rao@example.com', subject, text: 'x', kind: 'request_approved' });
      await db.updateTable('mail_outbox').set({ status, sent_at: sentDaysAgo === null ? null : new Date(Date.now() - sentDaysAgo * 86_400_000) }).where('id', '=', id).execute();
    };
    const whatsapp = async (template: string, status: 'sent' | 'pending' | 'failed', sentDaysAgo: number | null) => {
      const { id } = await db
        .insertInto('whatsapp_outbox')
        .values({ user_id: userId, to_phone: '+919845012345', template, template_name: template, language: 'en', params: JSON.stringify([]), status, next_attempt_at: status === 'pending' ? new Date() : null, sent_at: sentDaysAgo === null ? null : new Date(Date.now() - sentDaysAgo * 86_400_000) })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.insertInto('whatsapp_attempts').values({ message_id: id, status_code: status === 'sent' ? 200 : 500, error: null, duration_ms: 40 }).execute();
    };
    for (const [name, status, days] of [['old', 'sent', 31], ['recent', 'sent', 29], ['failed', 'failed', null], ['pending', 'pending', null]] as const) {
      await mail(name, status, days);
      await whatsapp(name, status, days);
    }
    const report = await pruneExpiredRows(t.ctx);
    expect({ sentMail: report.sentMail, sentWhatsApp: report.sentWhatsApp }).toEqual({ sentMail: 1, sentWhatsApp: 1 });
    expect((await db.selectFrom('mail_outbox').select('subject').orderBy('id').execute()).map((r) => r.subject)).toEqual(['recent', 'failed', 'pending']);
    const left = await db.selectFrom('whatsapp_outbox').leftJoin('whatsapp_attempts', 'whatsapp_attempts.message_id', 'whatsapp_outbox.id').select(['template', 'whatsapp_attempts.id as attempt']).orderBy('whatsapp_outbox.id').execute();
    expect(left.map((r) => r.template)).toEqual(['recent', 'failed', 'pending']);
    expect(left.every((r) => r.attempt !== null)).toBe(true);
    expect(Number((await sql<{ n: number }>`select count(*) as n from whatsapp_attempts`.execute(db)).rows[0]!.n)).toBe(3);
  });

  test('the background job does it shortly after start', async () => {
    const { liveSession } = await seed();
    const stop = startBackgroundJobs(t.ctx);
    try {
      for (let i = 0; i < 100 && (await remaining()).sessions.length > 1; i++) await Bun.sleep(100);
    } finally {
      await stop();
    }
    const left = await remaining();
    expect(left.sessions).toEqual([liveSession]);
    expect(left.mail.filter((s) => s === 'sent 31')).toEqual([]);
  });

});

describe('pruning settings', () => {
  test('MAIL_RETENTION_DAYS is checked at start', () => {
    const base = { JWT_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/sp-prune-settings' };
    expect(loadSettings(base).mailRetentionDays).toBe(30);
    expect(() => loadSettings({ ...base, MAIL_RETENTION_DAYS: '0' })).toThrow(/MAIL_RETENTION_DAYS/);
  });
});
