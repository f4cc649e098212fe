import type { AppContext } from '#api/context.ts';
import { pruneRateLimits } from '#api/lib/rate-limit.ts';
import { pruneSessions, pruneSignInTokens } from '#api/modules/auth/prune.ts';
import { MAIL_QUEUE } from '#api/modules/mail/service.ts';
import { pruneAccessLog } from '#api/modules/access-log/service.ts';
import { WHATSAPP_QUEUE } from '#api/modules/whatsapp/worker.ts';
import { pruneSent } from './queue.ts';

export interface PruneReport {
  sessions: number;
  signInTokens: number;
  sentMail: number;
  accessLog: number;
  sentWhatsApp: number;
}

/**
 * Removes what is kept for no reason and would only grow: dead sessions, spent sign-in links, old
 * rate-limit windows, sent mail and WhatsApp messages older than MAIL_RETENTION_DAYS and access-log records older than a year. Run by the background job.
 */
export async function pruneExpiredRows(ctx: AppContext): Promise<PruneReport> {
  const sessions = await pruneSessions(ctx.db, ctx.settings.sessionIdleHours);
  const signInTokens = await pruneSignInTokens(ctx.db);
  await pruneRateLimits(ctx.db);
  const sentMail = await pruneSent(ctx.db, MAIL_QUEUE, ctx.settings.mailRetentionDays);
  const sentWhatsApp = await pruneSent(ctx.db, WHATSAPP_QUEUE, ctx.settings.mailRetentionDays);
  const accessLog = await pruneAccessLog(ctx.db);
  const report = { sessions, signInTokens, sentMail, sentWhatsApp, accessLog };
  if (sessions + signInTokens + sentMail + sentWhatsApp + accessLog > 0) ctx.log.info('pruned expired rows', { ...report });
  return report;
}
