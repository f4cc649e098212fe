import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { Settings } from '#api/settings.ts';
import { enqueueMail } from '#api/modules/mail/service.ts';
import { formatMoney } from '#api/lib/money.ts';
import { creditExpiryMail } from '#api/modules/mail/templates.ts';
import { mailDate } from './offer.ts';
import { LANGUAGE_LOCALES } from '#api/modules/users/rules.ts';
import { queueWhatsApp } from '#api/modules/whatsapp/service.ts';

/**
 * Store credit that expires (Shopify only: CREDIT_EXPIRY_DAYS sets expiresAt on the push), and the
 * reminder mail CREDIT_REMINDER_DAYS before it does. The embedded shop's credit never expires.
 */

/** When credit issued now expires, or null when it does not. */
export function creditExpiresAt(settings: Settings): Date | null {
  if (settings.shopBackend !== 'shopify' || settings.creditExpiryDays === null) return null;
  return new Date(Date.now() + settings.creditExpiryDays * 86_400_000);
}

/**
 * Mails each customer whose pushed credit expires within the reminder window, once per credit:
 * rows are claimed with SKIP LOCKED and marked in the transaction that queues their mail.
 */
export async function remindExpiringCredits(ctx: AppContext, batch = 100): Promise<number> {
  const days = ctx.settings.creditReminderDays;
  const reminded = await ctx.db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('credit_ledger')
      .select('id')
      .where('expires_at', 'is not', null)
      .where('expiry_reminded_at', 'is', null)
      .where('push_status', '=', 'success')
      .where('expires_at', '>', sql<Date>`now()`)
      .where('expires_at', '<=', sql<Date>`now() + make_interval(days => ${days})`)
      .orderBy('expires_at')
      .limit(batch)
      .forUpdate()
      .skipLocked()
      .execute();
    if (due.length === 0) return 0;
    const rows = await trx
      .updateTable('credit_ledger as l')
      .from('users as u')
      .set({ expiry_reminded_at: sql`now()` })
      .whereRef('u.id', '=', 'l.user_id')
      .where('l.id', 'in', due.map((d) => d.id))
      .returning(['l.id', 'l.amount', 'l.currency', 'l.expires_at', 'u.email', 'u.id as user_id', 'u.language'])
      .execute();
    for (const row of rows) {
      // the date and the amount as the customer reads them, in the mail and in the WhatsApp template (sent in the same language)
      const locale = LANGUAGE_LOCALES[row.language];
      const expiresOn = mailDate(row.expires_at!, ctx.settings.shopTimeZone, locale);
      await enqueueMail(trx, creditExpiryMail(row.email, ctx.settings.publicUrl, { amount: Number(row.amount), currency: row.currency, expiresOn }, row.language));
      const amount = formatMoney(Number(row.amount), row.currency, locale);
      await queueWhatsApp(trx, ctx, { userId: row.user_id, template: 'credit_expiry_reminder', params: { amount, expiresOn, link: `${ctx.settings.publicUrl}/dashboard` } });
    }
    return rows.length;
  });
  if (reminded > 0) ctx.mailer.kick();
  return reminded;
}
