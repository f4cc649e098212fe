import type { Db } from '#api/db/connect.ts';
import { INVALID_EMAIL_MESSAGE, isValidEmail, normalizeEmail } from '#api/lib/email.ts';
import { badRequest } from '#api/lib/errors.ts';
import type { ShopCustomerInfo } from '#api/integrations/shop/types.ts';
import { isLanguage, LANGUAGE_INVALID, normalizePhone, PHONE_INVALID, PHONE_NEEDED, type Language } from './rules.ts';

/** Makes EMAIL an admin; creates the user if they have never signed in, so staff can sign in. */
export async function grantAdmin(db: Db, rawEmail: string): Promise<'granted' | 'already'> {
  if (!isValidEmail(rawEmail)) throw badRequest(INVALID_EMAIL_MESSAGE);
  const email = normalizeEmail(rawEmail);
  const before = await db.selectFrom('users').select('is_admin').where('email', '=', email).executeTakeFirst();
  if (before?.is_admin) return 'already';
  await db
    .insertInto('users')
    .values({ email, is_admin: true, name: null, shop_customer_id: null })
    .onConflict((oc) => oc.column('email').doUpdateSet({ is_admin: true, updated_at: new Date() }))
    .execute();
  return 'granted';
}

/** Takes admin away at once: every request reads the flag from the database, not from the token. */
export async function revokeAdmin(db: Db, rawEmail: string): Promise<'revoked' | 'not-admin'> {
  if (!isValidEmail(rawEmail)) throw badRequest(INVALID_EMAIL_MESSAGE);
  const result = await db
    .updateTable('users')
    .set({ is_admin: false, updated_at: new Date() })
    .where('email', '=', normalizeEmail(rawEmail))
    .where('is_admin', '=', true)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0 ? 'revoked' : 'not-admin';
}

/** Grants admin to ADMIN_EMAILS users that already exist (new ones get it when they first sign in). */
export async function applyAdminEmails(db: Db, adminEmails: readonly string[]): Promise<void> {
  if (adminEmails.length === 0) return;
  await db.updateTable('users').set({ is_admin: true, updated_at: new Date() }).where('email', 'in', adminEmails).where('is_admin', '=', false).execute();
}

/**
 * The user row of someone signing in: created on first sign-in (in the language they read the site in), its name and shop id refreshed from
 * the shop (kept when the shop did not answer), admin granted when ADMIN_EMAILS lists them.
 */
export async function saveSignedInUser(db: Db, email: string, customer: ShopCustomerInfo | null, options: { makeAdmin?: boolean; language?: Language } = {}) {
  const makeAdmin = options.makeAdmin ?? false;
  const name = customer ? [customer.firstName, customer.lastName].filter(Boolean).join(' ') || null : null;
  const shopCustomerId = customer?.shopCustomerId ?? null;
  return db
    .insertInto('users')
    .values({ email, name, is_admin: makeAdmin, shop_customer_id: shopCustomerId, ...(options.language ? { language: options.language } : {}) })
    .onConflict((oc) =>
      oc.column('email').doUpdateSet((eb) => ({
        name: eb.fn.coalesce(eb.val(name), 'users.name'),
        shop_customer_id: eb.fn.coalesce(eb.val(shopCustomerId), 'users.shop_customer_id'),
        is_admin: makeAdmin ? true : eb.ref('users.is_admin'),
        updated_at: new Date(),
      })),
    )
    .returning(['id', 'email', 'name', 'is_admin'])
    .executeTakeFirstOrThrow();
}

export interface ProfileChange {
  phone?: string | null;
  whatsapp?: boolean;
  language?: string;
}

/**
 * Saves the customer's phone, WhatsApp choice and language (PUT /api/profile). The phone is kept as
 * E.164; opting in needs a phone (sent now or saved before); removing the phone opts out. One
 * conditional update, so the opt-in is never left without a number.
 */
export async function updateProfile(db: Db, userId: string, change: ProfileChange) {
  const phone = change.phone === undefined ? undefined : change.phone === null || change.phone.trim() === '' ? null : normalizePhone(change.phone);
  if (phone === null && change.phone !== null && change.phone?.trim() !== '') throw badRequest(PHONE_INVALID);
  if (change.language !== undefined && !isLanguage(change.language)) throw badRequest(LANGUAGE_INVALID);
  if (phone === null && change.whatsapp === true) throw badRequest(PHONE_NEEDED);
  const optIn = phone === null ? false : change.whatsapp;
  const updated = await db
    .updateTable('users')
    .set((eb) => ({
      updated_at: new Date(),
      ...(phone !== undefined ? { phone } : {}),
      ...(change.language !== undefined ? { language: change.language as Language } : {}),
      ...(optIn !== undefined ? { whatsapp_opt_in: optIn } : {}),
      // the moment of consent: kept while opted in, set again on each new opt-in
      ...(optIn === true ? { whatsapp_opted_in_at: eb.case().when('users.whatsapp_opt_in', '=', true).then(eb.ref('users.whatsapp_opted_in_at')).else(new Date()).end() } : {}),
      ...(optIn === false ? { whatsapp_opted_in_at: null } : {}),
    }))
    .where('id', '=', userId)
    // opting in without a phone sent now needs one saved before
    .$if(optIn === true && phone === undefined, (qb) => qb.where('phone', 'is not', null))
    .returning('id')
    .executeTakeFirst();
  if (!updated) throw badRequest(PHONE_NEEDED);
}

/** Opts out whoever has this phone (E.164): a STOP reply on WhatsApp. How many were opted in. */
export async function optOutPhone(db: Db, phone: string): Promise<number> {
  const result = await db
    .updateTable('users')
    .set({ whatsapp_opt_in: false, whatsapp_opted_in_at: null, updated_at: new Date() })
    .where('phone', '=', phone)
    .where('whatsapp_opt_in', '=', true)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
