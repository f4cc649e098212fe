import type { AppContext } from '#api/context.ts';
import { pruneExpiredRows } from './prune.ts';
import { CREDIT_PUSH_QUEUE, pushAllDueCredits } from '#api/modules/credit/push.ts';
import { retryCreditPush } from '#api/modules/credit/history.ts';
import { remindExpiringCredits } from '#api/modules/credit/expiry.ts';
import { removeUnattachedUploads } from '#api/modules/images/service.ts';
import { removeExpiredPhotos } from '#api/modules/requests/photo-retention.ts';
import { MAIL_QUEUE } from '#api/modules/mail/service.ts';
import { deliverAllDueWebhooks, deliverDueWebhooks, WEBHOOK_QUEUE } from '#api/modules/webhooks/delivery.ts';
import { redeliver } from '#api/modules/webhooks/service.ts';
import { nightlyBackup } from '#api/modules/backup/nightly.ts';
import { sendAllDueWhatsApp, sendDueWhatsApp, WHATSAPP_QUEUE } from '#api/modules/whatsapp/worker.ts';
import { runDeadlines } from '#api/modules/deadlines/service.ts';
import { pollLateTracking, TRACKING_BACKLOG } from '#api/modules/shipments/poll.ts';
import { PRIVACY_QUEUE, retryPrivacyJob, runDuePrivacyJobs } from '#api/modules/privacy/jobs.ts';
import type { Settings } from '#api/settings.ts';
import { queueBacklog, type Backlog } from './backlog.ts';
import { requeueFailed, type AnyQueue } from './queue.ts';

/**
 * Every piece of background work, in one list. Each instance ticks each job every `everyMs`; each
 * period's run is claimed in the database (periodic.ts), so over several instances a job runs once
 * per period. A job that works through a queue (queue.ts) names it, and how one of its failed jobs
 * is sent again by hand: `swappoints jobs list` and `jobs retry` read that.
 *
 * Adding a job: write its worker beside its feature (claim with claimDue, record with leased, wait
 * with backoff.ts), then add one entry here. /metrics counts the items of every queue named here,
 * and of every job that names its `backlog`.
 */
export interface Job {
  name: string;
  everyMs: number;
  /** `signal` is aborted when the server stops: a job working in batches ends after the one in hand */
  run: (ctx: AppContext, signal: AbortSignal) => Promise<unknown>;
  queue?: QueueJob;
  /** A periodic job that works through rows it finds by a scan, not a queue: what /metrics counts of them. */
  backlog?: Backlog;
}

export interface QueueJob {
  queue: AnyQueue;
  /** Queues a failed job again and runs it now: false (or an AppError) when it has nothing to retry. */
  retry: (ctx: AppContext, id: number) => Promise<boolean>;
}

export const JOBS: readonly Job[] = [
  {
    name: 'mail-outbox',
    everyMs: 5_000,
    run: (ctx) => ctx.mailer.flush(),
    queue: {
      queue: MAIL_QUEUE,
      retry: async (ctx, id) => {
        if (!(await requeueFailed(ctx.db, MAIL_QUEUE, id))) return false;
        await ctx.mailer.flush();
        return true;
      },
    },
  },
  {
    name: 'credit-push',
    everyMs: 10_000,
    run: (ctx, signal) => pushAllDueCredits(ctx, signal),
    queue: {
      queue: CREDIT_PUSH_QUEUE,
      retry: async (ctx, id) => {
        await retryCreditPush(ctx, id); // 409 when the credit is not failed
        return true;
      },
    },
  },
  {
    name: 'webhook-deliveries',
    everyMs: 2_000,
    run: (ctx, signal) => deliverAllDueWebhooks(ctx, signal),
    queue: {
      queue: WEBHOOK_QUEUE,
      retry: async (ctx, id) => {
        await redeliver(ctx.db, id);
        await deliverDueWebhooks(ctx, { limit: 1, onlyId: id });
        return true;
      },
    },
  },
  {
    name: 'whatsapp-outbox',
    everyMs: 3_000,
    run: (ctx, signal) => sendAllDueWhatsApp(ctx, signal),
    queue: {
      queue: WHATSAPP_QUEUE,
      retry: async (ctx, id) => {
        if (!(await requeueFailed(ctx.db, WHATSAPP_QUEUE, id))) return false;
        await sendDueWhatsApp(ctx, { limit: 1, onlyId: id });
        return true;
      },
    },
  },
  {
    name: 'privacy',
    everyMs: 5_000,
    run: (ctx, signal) => runDuePrivacyJobs(ctx, signal),
    queue: { queue: PRIVACY_QUEUE, retry: (ctx, id) => retryPrivacyJob(ctx, id) },
  },
  { name: 'credit-expiry-reminders', everyMs: 3_600_000, run: (ctx) => remindExpiringCredits(ctx) },
  { name: 'remove-unattached-uploads', everyMs: 3_600_000, run: (ctx) => removeUnattachedUploads(ctx) },
  { name: 'prune-expired-rows', everyMs: 3_600_000, run: (ctx) => pruneExpiredRows(ctx) },
  { name: 'photo-retention', everyMs: 3_600_000, run: (ctx) => removeExpiredPhotos(ctx) },
  // offers past their answer date, unshipped requests past SHIP_BY_DAYS, and both reminders
  { name: 'deadlines', everyMs: 900_000, run: (ctx) => runDeadlines(ctx) },
  { name: 'carrier-tracking-poll', everyMs: 15 * 60_000, run: (ctx) => pollLateTracking(ctx), backlog: TRACKING_BACKLOG },
];

/** The queue-backed jobs, by their kind (`mail`, `credit-push`, `webhook`). */
export const QUEUE_JOBS: ReadonlyMap<string, QueueJob> = new Map(JOBS.flatMap((job) => (job.queue ? [[job.queue.queue.kind, job.queue] as const] : [])));

/** Every job's items as /metrics counts them: each queue's, then each scanned backlog. */
export const BACKLOGS: readonly Backlog[] = JOBS.flatMap((job) => (job.queue ? [queueBacklog(job.queue.queue)] : job.backlog ? [job.backlog] : []));

/**
 * The jobs this instance runs: every job above, and the nightly backup when BACKUP_DIR is set (once
 * a day over every instance, claimed like the rest; the first shortly after start unless one ran in
 * the last day).
 */
export function jobsFor(settings: Settings): readonly Job[] {
  return settings.backupDir ? [...JOBS, { name: 'nightly-backup', everyMs: 86_400_000, run: (ctx) => nightlyBackup(ctx) }] : JOBS;
}
