import type { Db } from '#api/db/connect.ts';
import { INVALID_EMAIL_MESSAGE, isValidEmail, normalizeEmail } from '#api/lib/email.ts';
import { badRequest } from '#api/lib/errors.ts';
import type { ShopCustomerInfo } from '#api/integrations/shop/types.ts';

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
 * The user row of someone signing in: created on first sign-in, its name and shop id refreshed from
 * the shop (kept when the shop did not answer), admin granted when ADMIN_EMAILS lists them.
 */
export async function saveSignedInUser(db: Db, email: string, customer: ShopCustomerInfo | null, options: { makeAdmin?: boolean } = {}) {
  const makeAdmin = options.makeAdmin ?? false;
  const name = customer ? [customer.firstName, customer.lastName].filter(Boolean).join(' ') || null : null;
  const shopCustomerId = customer?.shopCustomerId ?? null;
  return db
    .insertInto('users')
    .values({ email, name, is_admin: makeAdmin, shop_customer_id: shopCustomerId })
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
