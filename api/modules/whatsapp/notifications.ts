import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';

/**
 * Every notification to customers and staff, by mail and by WhatsApp, newest first: what
 * `swappoints notifications list` prints. A WhatsApp message shows its template and the delivery
 * status Meta last reported; a mail its kind.
 */

export const CHANNELS = ['mail', 'whatsapp'] as const;
export type Channel = (typeof CHANNELS)[number];

export interface NotificationRow {
  /** `mail:12`, `whatsapp:7`: the same id `swappoints jobs` takes */
  id: string;
  channel: Channel;
  to: string;
  kind: string;
  status: string;
  delivery: string | null;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  sentAt: Date | null;
}

interface Listed {
  channel: Channel;
  row_id: string | number;
  to_address: string;
  kind: string;
  status: string;
  delivery: string | null;
  attempts: number;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
}

export async function listNotifications(db: Db, filter: { channel?: Channel; limit?: number } = {}): Promise<NotificationRow[]> {
  const limit = filter.limit ?? 50;
  const parts = [];
  if (filter.channel !== 'whatsapp') {
    parts.push(sql`(select 'mail' as channel, id::bigint as row_id, to_email as to_address, kind, status::text as status, null::text as delivery,
      attempts, last_error, created_at, sent_at from mail_outbox order by created_at desc, id desc limit ${limit})`);
  }
  if (filter.channel !== 'mail') {
    parts.push(sql`(select 'whatsapp' as channel, id::bigint as row_id, to_phone as to_address, template as kind, status, delivery_status as delivery,
      attempts, coalesce(delivery_error, last_error) as last_error, created_at, sent_at from whatsapp_outbox order by created_at desc, id desc limit ${limit})`);
  }
  const result = await sql<Listed>`select * from (${sql.join(parts, sql` union all `)}) n order by created_at desc, row_id desc limit ${limit}`.execute(db);
  return result.rows.map((r) => ({
    id: `${r.channel}:${r.row_id}`,
    channel: r.channel,
    to: r.to_address,
    kind: r.kind,
    status: r.status,
    delivery: r.delivery,
    attempts: Number(r.attempts),
    lastError: r.last_error,
    createdAt: r.created_at,
    sentAt: r.sent_at,
  }));
}
