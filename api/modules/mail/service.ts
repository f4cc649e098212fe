import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';
import type { MailMessage } from '#api/db/types.ts';
import type { Logger } from '#api/lib/log.ts';
import type { MailTransport } from './model.ts';
import { exponentialSeconds, withJitter } from '#api/jobs/backoff.ts';
import { drainInBatches, type BatchReport } from '#api/jobs/drain.ts';
import { claimDue, leased, type Outbox } from '#api/jobs/queue.ts';

export interface NewMail {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  kind: string;
  link?: string | null;
}

const MAX_ATTEMPTS = 8;
export const SIGN_IN_KIND = 'sign_in';
/** How long a claimed message is left to its sender before another worker may try it again. */
const LEASE_SECONDS = 120;

/** Puts a message in the outbox; it goes out when the outbox is next drained. Pass a transaction to send only if it commits. */
export async function enqueueMail(db: Db, mail: NewMail): Promise<number> {
  const row = await db
    .insertInto('mail_outbox')
    .values({
      to_email: mail.to,
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html ?? null,
      kind: mail.kind,
      link: mail.link ?? null,
      next_attempt_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface MailListFilter {
  to?: string;
  limit?: number;
}

/** Newest first. */
export async function listMail(db: Db, filter: MailListFilter = {}): Promise<MailMessage[]> {
  let query = db.selectFrom('mail_outbox').selectAll().orderBy('id', 'desc').limit(filter.limit ?? 100);
  if (filter.to) query = query.where(sql`lower(to_email)`, '=', filter.to.trim().toLowerCase());
  return query.execute();
}

export interface DrainResult {
  sent: number;
  failed: number;
}

/** The outbox as a job queue (api/jobs/queue.ts): a message is a job, due at next_attempt_at. */
export const MAIL_QUEUE: Outbox<'mail_outbox'> = {
  kind: 'mail',
  table: 'mail_outbox',
  columns: { status: 'status', attempts: 'attempts', dueAt: 'next_attempt_at', error: 'last_error', sentAt: 'sent_at' },
  claimable: ['pending'],
  leasedStatus: 'pending',
  doneStatus: 'sent',
};

/** Seconds before the next try after `attempts` failed ones: 15 s × 2^attempts, at most an hour, ±10 %. */
export function mailBackoffSeconds(attempts: number, random?: number): number {
  return withJitter(exponentialSeconds(attempts, 15, 3600), 0.1, random);
}

/** Sends one claimed batch of due mail and records each outcome while the lease is ours. */
async function sendBatch(db: Db, transport: MailTransport, log: Logger, limit: number): Promise<BatchReport> {
  const batch = await claimDue(db, MAIL_QUEUE, { limit, leaseSeconds: LEASE_SECONDS });
  const report: BatchReport = { claimed: batch.length, succeeded: 0, failed: 0 };
  for (const mail of batch) {
    try {
      await transport.send({ to: mail.to_email, subject: mail.subject, text: mail.text_body, html: mail.html_body, link: mail.link });
      // A sent sign-in mail is a live key to an account until it expires: once it has left by
      // SMTP, keep only that it was sent. (Under the log transport the outbox is how it is read.)
      const blank = transport.kind === 'smtp' && mail.kind === SIGN_IN_KIND ? { text_body: '', html_body: null, link: null } : {};
      await leased(db, MAIL_QUEUE, mail.id, mail.attempts).set({ status: 'sent', sent_at: new Date(), last_error: null, ...blank }).execute();
      report.succeeded++;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const giveUp = mail.attempts >= MAX_ATTEMPTS;
      await leased(db, MAIL_QUEUE, mail.id, mail.attempts)
        .set({
          status: giveUp ? 'failed' : 'pending',
          last_error: message.slice(0, 1000),
          next_attempt_at: new Date(Date.now() + mailBackoffSeconds(mail.attempts) * 1000),
        })
        .execute();
      log.warn('mail not sent', { id: mail.id, to: mail.to_email, attempt: mail.attempts, error: message, giveUp });
      report.failed++;
    }
  }
  return report;
}

/**
 * Sends what is due, batch by batch. Claimed and leased through the job queue, so any number of
 * server instances can drain one outbox without sending a message twice; a sender that dies mid-way
 * leaves its messages to be retried when the lease ends.
 */
export async function drainOutbox(db: Db, transport: MailTransport, log: Logger, batchSize = 20): Promise<DrainResult> {
  const total = await drainInBatches((limit) => sendBatch(db, transport, log, limit), batchSize);
  return { sent: total.succeeded, failed: total.failed };
}

