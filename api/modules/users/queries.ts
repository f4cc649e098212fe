import type { Db } from '#api/db/connect.ts';
import { compiledOnce, preparedMark } from '#api/db/prepared.ts';
import type { CustomerRef } from '#api/integrations/shop/types.ts';
import type { Language } from './rules.ts';

/**
 * Who is an admin, decided here only: an email listed in ADMIN_EMAILS, or a user whose `is_admin` is
 * set (granted by the CLI, or copied from ADMIN_EMAILS at start and at sign-in by `users/service.ts`).
 * A session reads `users.is_admin` in its own join (`auth/sessions.ts` `loadSession`), which that copy
 * keeps true for every listed email.
 */
export function isListedAdmin(adminEmails: readonly string[], email: string): boolean {
  return adminEmails.includes(email);
}

/** Whether EMAIL (normalised) is an admin: staff may sign in without being shop customers. */
export async function isAdminEmail(db: Db, adminEmails: readonly string[], email: string): Promise<boolean> {
  if (isListedAdmin(adminEmails, email)) return true;
  const user = await db.selectFrom('users').select('is_admin').where('email', '=', email).executeTakeFirst();
  return user?.is_admin ?? false;
}

/** Every admin's email, once each and sorted: ADMIN_EMAILS and every admin user. */
export async function allAdminEmails(db: Db, adminEmails: readonly string[]): Promise<string[]> {
  const admins = await db.selectFrom('users').select('email').where('is_admin', '=', true).execute();
  return [...new Set([...adminEmails, ...admins.map((a) => a.email)])].sort();
}

/** The admin users, by email (the CLI's `admin list`). */
export async function listAdmins(db: Db) {
  return db.selectFrom('users').select(['email', 'name', 'created_at']).where('is_admin', '=', true).orderBy('email').execute();
}

/** The language the user chose for what we write to them (mails, WhatsApp); English for an unknown user. */
export async function languageOf(db: Db, userId: string): Promise<Language> {
  const row = await db.selectFrom('users').select('language').where('id', '=', userId).executeTakeFirst();
  return row?.language ?? 'en';
}

/** The saved language of the user with EMAIL (normalised), or null when they have never signed in. */
export async function languageByEmail(db: Db, email: string): Promise<Language | null> {
  const row = await db.selectFrom('users').select('language').where('email', '=', email).executeTakeFirst();
  return row?.language ?? null;
}

/** The id of the user with EMAIL (normalised), if they have ever signed in. */
export async function userIdByEmail(db: Db, email: string): Promise<{ id: string } | undefined> {
  return db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
}

/** The user with EMAIL, who must exist (the demo's admin). */
export async function userByEmailOrThrow(db: Db, email: string) {
  return db.selectFrom('users').select(['id', 'email']).where('email', '=', email).executeTakeFirstOrThrow();
}

/** Who a user is to the shop: their id, email and shop customer id. */
export async function shopIdentityOf(db: Db, userId: string) {
  const [user] = await shopIdentity(db, { userId });
  if (!user) throw new Error(`no user ${userId}`);
  return user;
}

/** Read for every balance (each request detail): compiled once and prepared. */
const shopIdentity = compiledOnce(['userId'], (db, p) =>
  db.selectFrom('users').select(['id', 'email', 'shop_customer_id']).modifyFront(preparedMark('shop-identity')).where('id', '=', p.userId),
);

/** The user as the shop backend looks them up (balance, credit pushes). */
export async function customerRef(db: Db, userId: string): Promise<CustomerRef> {
  const user = await shopIdentityOf(db, userId);
  return { userId: user.id, email: user.email, shopCustomerId: user.shop_customer_id };
}

/** The signed-in user as the shop backend looks them up, from their session's read (no read of its own). */
export function sessionCustomerRef(user: { id: string; email: string; shopCustomerId: string | null }): CustomerRef {
  return { userId: user.id, email: user.email, shopCustomerId: user.shopCustomerId };
}

/**
 * Locks the user's row until the transaction ends, so one user's writes that check a limit (uploads,
 * new requests) run one after the other. False when there is no such user.
 */
export async function lockUser(trx: Db, userId: string): Promise<boolean> {
  const rows = await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  return rows.length > 0;
}

/** Whether any user exists. */
export async function hasAnyUser(db: Db): Promise<boolean> {
  const rows = await db.selectFrom('users').select('id').limit(1).execute();
  return rows.length > 0;
}

/** What a customer set on their profile: phone, WhatsApp opt-in and language. */
export async function profileOf(db: Db, userId: string) {
  return db.selectFrom('users').select(['id', 'email', 'name', 'is_admin', 'phone', 'whatsapp_opt_in', 'language']).where('id', '=', userId).executeTakeFirstOrThrow();
}
