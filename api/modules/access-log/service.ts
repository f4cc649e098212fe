import type { Db } from '#api/db/connect.ts';

/** What was looked at: a request's detail (admin page or API), an export of a customer's data, an erasure. */
export const ACCESS_ACTIONS = ['request_detail', 'export', 'erasure'] as const;
export type AccessAction = (typeof ACCESS_ACTIONS)[number];

/** How long a record of who looked is kept (issue 25: one year). */
export const ACCESS_LOG_RETENTION_DAYS = 365;

export interface AccessRecord {
  /** the admin's email, or `operator (cli)` for a command run on the server */
  actorEmail: string;
  action: AccessAction;
  subjectEmail: string | null;
  requestId?: string | null;
}

/** Writes down that someone looked at a customer's personal data (privacy_access_log). */
export async function recordAccess(db: Db, record: AccessRecord): Promise<void> {
  await db
    .insertInto('privacy_access_log')
    .values({ actor_email: record.actorEmail, action: record.action, subject_email: record.subjectEmail, request_id: record.requestId ?? null })
    .execute();
}

/** Removes records older than a year; run by the hourly cleanup. */
export async function pruneAccessLog(db: Db, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - ACCESS_LOG_RETENTION_DAYS * 86_400_000);
  const result = await db.deleteFrom('privacy_access_log').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
