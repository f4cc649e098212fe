import type { AppContext } from '#api/context.ts';
import type { Db } from '#api/db/connect.ts';
import type { ExchangeRequestRow, WarehouseSnapshot } from '#api/db/types.ts';
import { allAdminEmails, languageOf } from '#api/modules/users/queries.ts';
import type { Language } from '#api/modules/users/rules.ts';
import { enqueueMail } from '#api/modules/mail/service.ts';
import {
  creditAssignedMail,
  exchangeCompletedMail,
  formatAddress,
  itemReceivedMail,
  newRequestAdminMail,
  requestApprovedMail,
  requestDeclinedMail,
} from '#api/modules/mail/templates.ts';
import { formatMoney } from '#api/lib/money.ts';
import { queueWhatsApp } from '#api/modules/whatsapp/service.ts';

/**
 * The mails a change of a request sends, and beside each the WhatsApp message for a customer who
 * opted in, in the customer's language (the profile's). Each is put in its outbox with the transaction that makes the change (so a change that
 * rolls back sends nothing); the caller kicks the mailer after commit, the WhatsApp job sends within seconds.
 */

const summary = (row: ExchangeRequestRow) => ({ id: row.id, productName: row.product_name, brand: row.brand });
const product = (row: ExchangeRequestRow) => `${row.product_name} (${row.brand})`;
const link = (ctx: AppContext, row: ExchangeRequestRow) => `${ctx.settings.publicUrl}/exchange/${row.id}`;
const credit = (row: ExchangeRequestRow) => formatMoney(Number(row.credit_amount), row.currency);

export async function notifyNewRequest(trx: Db, ctx: AppContext, row: ExchangeRequestRow): Promise<void> {
  for (const to of await allAdminEmails(trx, ctx.settings.adminEmails)) {
    await enqueueMail(trx, newRequestAdminMail(to, ctx.settings.publicUrl, { ...summary(row), customerEmail: row.customer_email, condition: row.condition }));
  }
}

export async function notifyDecision(trx: Db, ctx: AppContext, row: ExchangeRequestRow): Promise<void> {
  const url = ctx.settings.publicUrl;
  const lang = await languageOf(trx, row.user_id);
  if (row.status === 'approved') {
    const shipTo = row.warehouse_snapshot as WarehouseSnapshot;
    await enqueueMail(trx, requestApprovedMail(row.customer_email, url, summary(row), shipTo, row.admin_feedback, lang));
    const address = formatAddress(shipTo, lang).split('\n').join(', ');
    await queueWhatsApp(trx, ctx, { userId: row.user_id, template: 'request_approved', params: { product: product(row), shipTo: address, link: link(ctx, row) } });
  } else if (row.status === 'declined') {
    await enqueueMail(trx, requestDeclinedMail(row.customer_email, url, summary(row), row.admin_feedback, lang));
    await queueWhatsApp(trx, ctx, { userId: row.user_id, template: 'request_declined', params: { product: product(row), reason: row.admin_feedback ?? '-', link: link(ctx, row) } });
  } else if (row.status === 'completed') {
    await enqueueMail(trx, exchangeCompletedMail(row.customer_email, url, summary(row), { amount: Number(row.credit_amount), currency: row.currency }, lang));
    await queueWhatsApp(trx, ctx, { userId: row.user_id, template: 'exchange_completed', params: { product: product(row), amount: credit(row), link: link(ctx, row) } });
  }
}

export async function notifyReceived(trx: Db, ctx: AppContext, row: ExchangeRequestRow): Promise<void> {
  await enqueueMail(trx, itemReceivedMail(row.customer_email, ctx.settings.publicUrl, summary(row), await languageOf(trx, row.user_id)));
  await queueWhatsApp(trx, ctx, { userId: row.user_id, template: 'item_received', params: { product: product(row), link: link(ctx, row) } });
}

/** `valuation`: the lines on the quote, the bonus and the reason, in the customer's language (credit/terms.ts). */
export async function notifyCredited(trx: Db, ctx: AppContext, row: ExchangeRequestRow, valuation: (lang: Language) => string[] = () => []): Promise<void> {
  const lang = await languageOf(trx, row.user_id);
  await enqueueMail(trx, creditAssignedMail(
      row.customer_email,
      ctx.settings.publicUrl,
      summary(row),
      { amount: Number(row.credit_amount), currency: row.currency, valuation: valuation(lang) },
      lang,
    ));
  await queueWhatsApp(trx, ctx, { userId: row.user_id, template: 'credit_assigned', params: { product: product(row), amount: credit(row), link: link(ctx, row) } });
}
