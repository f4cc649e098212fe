import type { Db } from '#api/db/connect.ts';

/**
 * Who is an admin, decided here only: an email listed in ADMIN_EMAILS, or a user whose `is_admin` is
 * set (granted by the CLI, or copied from ADMIN_EMAILS at start and at sign-in by `users/service.ts`).
 * A session reads `users.is_admin` in its own join (`auth/service.ts` `loadSession`), which that copy
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
