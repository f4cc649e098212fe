import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { ExchangeRequestRow } from '#api/db/types.ts';
import { acceptOffer } from '#api/modules/credit/offer-answer.ts';
import { mailDate, offerFigures } from '#api/modules/credit/offer.ts';
import { notShippedFeedback, OFFER_REMINDER_DAYS_BEFORE } from '#api/modules/credit/rules.ts';
import { enqueueMail } from '#api/modules/mail/service.ts';
import { queueWhatsApp } from '#api/modules/whatsapp/service.ts';
import { offerReminderMail, requestDeclinedMail, shipReminderMail } from '#api/modules/mail/templates.ts';
import { recordEvent, systemActor } from '#api/modules/requests/events.ts';
import { STEPS } from '#api/modules/requests/rules.ts';
import { stateCondition } from '#api/modules/requests/state-sql.ts';
import { emitRequestEvent } from '#api/modules/requests/webhook.ts';
import { languageOf } from '#api/modules/users/queries.ts';
import { LANGUAGE_LOCALES } from '#api/modules/users/rules.ts';
import { MAIL_TEXTS } from '#api/modules/mail/texts.ts';

/**
 * The deadlines (issue 24), run by the job loop (api/jobs/registry.ts) and by `swappoints deadlines
 * run`: an offer not answered by its date is accepted (a reminder 2 days before), an approved request
 * not shipped within SHIP_BY_DAYS of approval is closed as declined (a reminder SHIP_REMINDER_DAYS
 * before). Every change is a conditional update that records itself (offer_status, status,
 * offer_reminded_at, ship_reminded_at), so a second run for the same date changes nothing and mails
 * nobody twice, and two instances running it at once each change a row at most once between them.
 */

const DAY_MS = 86_400_000;

export interface DeadlineItem {
  id: string;
  productName: string;
  customerEmail: string;
}

export interface DeadlineReport {
  asOf: string;
  dryRun: boolean;
  /** approved, never shipped, past SHIP_BY_DAYS: declined */
  closed: DeadlineItem[];
  shipReminded: DeadlineItem[];
  offerReminded: DeadlineItem[];
  autoAccepted: DeadlineItem[];
}

const item = (row: Pick<ExchangeRequestRow, 'id' | 'product_name' | 'customer_email'>): DeadlineItem => ({ id: row.id, productName: row.product_name, customerEmail: row.customer_email });
const summary = (row: ExchangeRequestRow) => ({ id: row.id, productName: row.product_name, brand: row.brand });
const daysBefore = (date: Date, days: number) => new Date(date.getTime() - days * DAY_MS);

/** Runs every deadline as of `asOf` (now by default); with dryRun, reports what it would do and changes nothing. */
export async function runDeadlines(ctx: AppContext, options: { asOf?: Date; dryRun?: boolean } = {}): Promise<DeadlineReport> {
  const asOf = options.asOf ?? new Date();
  const dryRun = options.dryRun ?? false;
  const { shipByDays, shipReminderDays, shopTimeZone, publicUrl } = ctx.settings;
  const report: DeadlineReport = { asOf: asOf.toISOString(), dryRun, closed: [], shipReminded: [], offerReminded: [], autoAccepted: [] };
  const columns = ['id', 'product_name', 'customer_email'] as const;

  // offers past their answer date: accepted, with the credit the credit step gives
  const dueOffers = await ctx.db.selectFrom('exchange_requests').select(columns).where('offer_status', '=', 'pending').where('offer_respond_by', '<=', asOf).orderBy('offer_respond_by').execute();
  for (const row of dueOffers) {
    if (dryRun) report.autoAccepted.push(item(row));
    else if (await acceptOffer(ctx, systemActor, row.id, { by: 'deadline', asOf })) report.autoAccepted.push(item(row));
  }

  // offers 2 days from their answer date: reminded once
  const remindBy = new Date(asOf.getTime() + OFFER_REMINDER_DAYS_BEFORE * DAY_MS);
  if (dryRun) {
    const rows = await ctx.db.selectFrom('exchange_requests').select(columns).where('offer_status', '=', 'pending').where('offer_reminded_at', 'is', null).where('offer_respond_by', '<=', remindBy).where('offer_respond_by', '>', asOf).execute();
    report.offerReminded.push(...rows.map(item));
  } else {
    const rows = await ctx.db.transaction().execute(async (trx) => {
      const reminded = await trx
        .updateTable('exchange_requests')
        .set({ offer_reminded_at: sql`now()` })
        .where('offer_status', '=', 'pending')
        .where('offer_reminded_at', 'is', null)
        .where('offer_respond_by', '<=', remindBy)
        .where('offer_respond_by', '>', asOf)
        .returningAll()
        .execute();
      for (const row of reminded) {
        const lang = await languageOf(trx, row.user_id);
        const terms = offerFigures(row, shopTimeZone, lang);
        await enqueueMail(trx, offerReminderMail(row.customer_email, publicUrl, summary(row), terms, lang));
        await queueWhatsApp(trx, ctx, { userId: row.user_id, template: 'offer_waiting', params: { product: row.product_name, amount: terms.amount, respondBy: terms.respondBy, link: `${publicUrl}/exchange/${row.id}` } });
        await recordEvent(trx, { requestId: row.id, type: 'reminded', actor: systemActor, note: `Reminded to answer the offer by ${mailDate(row.offer_respond_by!, shopTimeZone)}` });
      }
      return reminded;
    });
    report.offerReminded.push(...rows.map(item));
  }

  // approved, not shipped within SHIP_BY_DAYS of approval: closed as declined
  const shipDeadline = daysBefore(asOf, shipByDays);
  if (dryRun) {
    const rows = await ctx.db.selectFrom('exchange_requests').select(columns).where((eb) => stateCondition(eb, STEPS.ship)).where('decided_at', '<=', shipDeadline).execute();
    report.closed.push(...rows.map(item));
  } else {
    const rows = await ctx.db.transaction().execute(async (trx) => {
      const closed = await trx
        .updateTable('exchange_requests')
        .set({ status: 'declined', admin_feedback: notShippedFeedback(shipByDays), updated_at: sql`now()` })
        .where((eb) => stateCondition(eb, STEPS.ship))
        .where('decided_at', '<=', shipDeadline)
        .returningAll()
        .execute();
      for (const row of closed) {
        await recordEvent(trx, { requestId: row.id, type: 'declined', actor: systemActor, fromStatus: 'approved', toStatus: 'declined', note: row.admin_feedback });
        // the stored reason is English (the admins read it); the customer is told it in their language
        const lang = await languageOf(trx, row.user_id);
        const reason = MAIL_TEXTS[lang].declined.notShipped(shipByDays);
        await enqueueMail(trx, requestDeclinedMail(row.customer_email, publicUrl, summary(row), reason, lang));
        await queueWhatsApp(trx, ctx, { userId: row.user_id, template: 'request_declined', params: { product: row.product_name, reason, link: `${publicUrl}/exchange/${row.id}` } });
        await emitRequestEvent(trx, 'request.declined', row);
      }
      return closed;
    });
    report.closed.push(...rows.map(item));
  }

  // approved, not shipped, SHIP_REMINDER_DAYS before that deadline: reminded once
  const remindFrom = daysBefore(asOf, shipByDays - shipReminderDays);
  if (dryRun) {
    const rows = await ctx.db.selectFrom('exchange_requests').select(columns).where((eb) => stateCondition(eb, STEPS.ship)).where('ship_reminded_at', 'is', null).where('decided_at', '<=', remindFrom).where('decided_at', '>', shipDeadline).execute();
    report.shipReminded.push(...rows.map(item));
  } else {
    const rows = await ctx.db.transaction().execute(async (trx) => {
      const reminded = await trx
        .updateTable('exchange_requests')
        .set({ ship_reminded_at: sql`now()` })
        .where((eb) => stateCondition(eb, STEPS.ship))
        .where('ship_reminded_at', 'is', null)
        .where('decided_at', '<=', remindFrom)
        .returningAll()
        .execute();
      for (const row of reminded) {
        const deadline = new Date(new Date(row.decided_at!).getTime() + shipByDays * DAY_MS);
        const lang = await languageOf(trx, row.user_id);
        const shipBy = mailDate(deadline, shopTimeZone, LANGUAGE_LOCALES[lang]);
        await enqueueMail(trx, shipReminderMail(row.customer_email, publicUrl, summary(row), shipBy, lang));
        await queueWhatsApp(trx, ctx, { userId: row.user_id, template: 'ship_reminder', params: { product: row.product_name, shipBy, link: `${publicUrl}/exchange/${row.id}` } });
        await recordEvent(trx, { requestId: row.id, type: 'reminded', actor: systemActor, note: `Reminded to ship by ${mailDate(deadline, shopTimeZone)}` });
      }
      return reminded;
    });
    report.shipReminded.push(...rows.map(item));
  }

  if (!dryRun && (report.closed.length || report.shipReminded.length || report.offerReminded.length)) ctx.mailer.kick();
  return report;
}
