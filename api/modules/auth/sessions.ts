import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';
import { compiledOnce, preparedMark } from '#api/db/prepared.ts';
import { isConnectionLost } from '#api/db/resilience.ts';
import { INVALID_EMAIL_MESSAGE, isValidEmail, normalizeEmail } from '#api/lib/email.ts';
import { badRequest, notFound } from '#api/lib/errors.ts';
import { userIdByEmail } from '#api/modules/users/queries.ts';
import type { Language } from '#api/modules/users/rules.ts';
import type { Agreement } from './terms.ts';

/** Sessions: the one a request carries (read with its user in one join), and signing out. */

export interface CurrentUser {
  id: string;
  email: string;
  name: string | null;
  isAdmin: boolean;
  sessionId: string;
  /** the profile's fields and the shop's id for the user, read in the same join: a page's profile and balance need no read of their own */
  phone: string | null;
  whatsapp: boolean;
  language: Language;
  shopCustomerId: string | null;
  /** the terms version the user agreed to last, read in the same statement: a page's terms banner needs no read of its own */
  latestAgreement: Agreement | null;
}

/** A session's last_seen_at is written at most once a minute: not one write per request. */
const TOUCH_EVERY = "interval '1 minute'";

/**
 * The statement of every signed-in request, compiled once and prepared on each connection. The
 * database's clock decides expiry and idleness (`now()`), as it decides the touch below.
 */
const liveSession = compiledOnce(['sessionId', 'userId', 'idleHours'], (db, p) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['users.id', 'users.email', 'users.name', 'users.is_admin', 'sessions.id as session_id'])
    .select(['users.phone', 'users.whatsapp_opt_in', 'users.language', 'users.shop_customer_id'])
    .select(sql<boolean>`sessions.last_seen_at < now() - ${sql.raw(TOUCH_EVERY)}`.as('stale'))
    .leftJoinLateral(
      (eb) => eb.selectFrom('terms_agreements').select(['version', 'agreed_at']).whereRef('terms_agreements.user_id', '=', 'users.id').orderBy('agreed_at', 'desc').limit(1).as('agreement'),
      (join) => join.onTrue(),
    )
    .select(['agreement.version as agreed_version', 'agreement.agreed_at'])
    .modifyFront(preparedMark('session'))
    .where('sessions.id', '=', p.sessionId)
    .where('sessions.user_id', '=', p.userId)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', sql<Date>`now()`)
    .where('sessions.last_seen_at', '>', sql<Date>`now() - make_interval(hours => ${p.idleHours})`),
);

/**
 * Marks the session used. Conditional, so requests of one session arriving together at the minute's
 * turn write the row once: the others find it fresh and change nothing.
 */
const touchSession = compiledOnce(['sessionId'], (db, p) =>
  db
    .updateTable('sessions')
    .set({ last_seen_at: sql<Date>`now()` })
    .where('id', '=', p.sessionId)
    .where('last_seen_at', '<', sql<Date>`now() - ${sql.raw(TOUCH_EVERY)}`),
);

const ignoreLostConnection = (error: unknown) => {
  if (!isConnectionLost(error)) throw error;
};

/**
 * The session behind a verified token: live only while not revoked, not expired, used within the
 * last `idleHours`, and its user exists. Read on every request (a logout or a revoked admin takes
 * effect at once); its last use is written at most once a minute.
 */
export async function loadSession(db: Db, sessionId: string, userId: string, idleHours: number): Promise<CurrentUser | null> {
  const [row] = await liveSession(db, { sessionId, userId, idleHours });
  if (!row) return null;
  // a touch lost with its connection (a database restart) is not worth failing the request for:
  // the session's next request writes it
  if (row.stale) await touchSession(db, { sessionId }).catch(ignoreLostConnection);
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    isAdmin: row.is_admin,
    sessionId: row.session_id,
    phone: row.phone,
    whatsapp: row.whatsapp_opt_in,
    language: row.language,
    shopCustomerId: row.shop_customer_id,
    latestAgreement: row.agreed_version === null || row.agreed_at === null ? null : { version: row.agreed_version, agreedAt: row.agreed_at },
  };
}

export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: new Date() }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
}

/** Signs a user out everywhere (revoked admin, `swappoints sessions revoke`). Returns how many sessions ended. */
export async function revokeUserSessions(db: Db, userId: string): Promise<number> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: new Date() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Signs EMAIL out of every session. */
export async function revokeSessionsOf(db: Db, rawEmail: string): Promise<number> {
  if (!isValidEmail(rawEmail)) throw badRequest(INVALID_EMAIL_MESSAGE);
  const user = await userIdByEmail(db, normalizeEmail(rawEmail));
  if (!user) throw notFound(`No user with the email ${normalizeEmail(rawEmail)} has signed in.`);
  return revokeUserSessions(db, user.id);
}
