import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';
import type { Settings } from '#api/settings.ts';
import { orderedParams, WHATSAPP_TEMPLATES, type TemplateParams, type WhatsAppTemplate } from './rules.ts';

/**
 * The WhatsApp outbox: a message is queued in the transaction of the change it tells about (so a
 * change that rolls back sends nothing) and sent by the worker (worker.ts). Only a customer who
 * opted in with a phone gets one; with the channel off (no WHATSAPP_TOKEN) nothing is queued.
 */

export interface WhatsAppNotice<T extends WhatsAppTemplate> {
  userId: string;
  template: T;
  params: TemplateParams<T>;
}

/**
 * Queues one template message to the customer, in their language, beside the mail that tells the
 * same. Call it with the transaction that makes the change. Answers the outbox id, or null when
 * nothing was queued (the channel is off, or the customer has not opted in).
 */
export async function queueWhatsApp<T extends WhatsAppTemplate>(trx: Db, ctx: { settings: Settings }, notice: WhatsAppNotice<T>): Promise<number | null> {
  const channel = ctx.settings.whatsapp;
  if (!channel) return null;
  const name = channel.templateNames[notice.template] ?? WHATSAPP_TEMPLATES[notice.template].name;
  const params = JSON.stringify(orderedParams(notice.template, notice.params));
  const row = await trx
    .insertInto('whatsapp_outbox')
    .columns(['user_id', 'to_phone', 'template', 'template_name', 'language', 'params', 'next_attempt_at'])
    .expression((eb) =>
      eb
        .selectFrom('users')
        .select([
          'id',
          'phone',
          eb.val(notice.template).as('template'),
          eb.val(name).as('template_name'),
          sql<string>`case when language = 'hi' then ${channel.languageCodes.hi} else ${channel.languageCodes.en} end`.as('language'),
          sql<string>`${params}::jsonb`.as('params'),
          sql<Date>`now()`.as('next_attempt_at'),
        ])
        .where('id', '=', notice.userId)
        .where('whatsapp_opt_in', '=', true)
        .where('phone', 'is not', null),
    )
    .returning('id')
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

const DELIVERY_RANK = { sent: 1, delivered: 2, read: 3, failed: 4 } as const;
export type DeliveryStatus = keyof typeof DELIVERY_RANK;

/**
 * Records what the Cloud API reported about a sent message (the webhook's statuses). Reports may
 * come out of order: a status only moves forward (sent → delivered → read; failed at any point).
 */
export async function recordDeliveryStatus(db: Db, waMessageId: string, status: DeliveryStatus, error: string | null): Promise<boolean> {
  const rank = sql<number>`case delivery_status when 'sent' then 1 when 'delivered' then 2 when 'read' then 3 when 'failed' then 4 else 0 end`;
  const updated = await db
    .updateTable('whatsapp_outbox')
    .set({
      delivery_status: status,
      ...(status === 'failed' ? { delivery_error: error?.slice(0, 1000) ?? 'failed' } : {}),
      ...(status === 'delivered' ? { delivered_at: sql`coalesce(delivered_at, now())` } : {}),
      ...(status === 'read' ? { read_at: sql`now()`, delivered_at: sql`coalesce(delivered_at, now())` } : {}),
    })
    .where('wa_message_id', '=', waMessageId)
    .where(rank, '<', DELIVERY_RANK[status])
    .returning('id')
    .executeTakeFirst();
  return updated !== undefined;
}

