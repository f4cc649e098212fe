import type { Db } from '#api/db/connect.ts';
import { normalizeEmail } from '#api/lib/email.ts';

export interface AccessLogEntry {
  id: number;
  at: string;
  actorEmail: string;
  action: string;
  subjectEmail: string | null;
  requestId: string | null;
}

/** Who looked at whose personal data, newest first; `email` narrows it to one customer. */
export async function listAccess(db: Db, options: { email?: string; limit?: number } = {}): Promise<AccessLogEntry[]> {
  let query = db.selectFrom('privacy_access_log').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit ?? 100);
  if (options.email) query = query.where((eb) => eb(eb.fn('lower', ['subject_email']), '=', normalizeEmail(options.email!)));
  const rows = await query.execute();
  return rows.map((r) => ({
    id: Number(r.id),
    at: r.created_at.toISOString(),
    actorEmail: r.actor_email,
    action: r.action,
    subjectEmail: r.subject_email,
    requestId: r.request_id,
  }));
}
