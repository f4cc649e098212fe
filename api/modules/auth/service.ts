import type { CurrentUser } from './sessions.ts';
import type { AppContext } from '#api/context.ts';
import type { Db } from '#api/db/connect.ts';
import { INVALID_EMAIL_MESSAGE, isValidEmail, normalizeEmail } from '#api/lib/email.ts';
import { AppError, badRequest } from '#api/lib/errors.ts';
import { hitRateLimit } from '#api/lib/rate-limit.ts';
import { hashToken, newSecretToken } from '#api/lib/tokens.ts';
import { enqueueMail } from '#api/modules/mail/service.ts';
import { signInMail } from '#api/modules/mail/templates.ts';
import { ShopError, type ShopCustomerInfo } from '#api/integrations/shop/types.ts';
import { isAdminEmail, isListedAdmin, languageByEmail, profileOf } from '#api/modules/users/queries.ts';
import type { Language } from '#api/modules/users/rules.ts';
import { saveSignedInUser, updateProfile, type ProfileChange } from '#api/modules/users/service.ts';
import type { ProfileDetails, UserProfile } from './model.ts';
import { recordAgreement } from './terms.ts';
import { currentTermsVersion } from './terms-version.ts';

export const SIGN_IN_LINK_TTL_MINUTES = 10;
const RATE_WINDOW_SECONDS = 15 * 60;

export const NO_EMAIL_MESSAGE = 'No email found. Please try signing in again.';
export const notInShopMessage = (email: string) =>
  `Email "${email}" not found in Shopify database. Only existing Shopify customers can login.`;
const SHOP_UNAVAILABLE_MESSAGE = 'Server error. Please try again later.';
export const LINK_INVALID = 'This sign-in link is not valid for this email address. Please request a new one.';
export const LINK_USED = 'This sign-in link has already been used. Please request a new one.';
export const LINK_EXPIRED = 'This sign-in link has expired. Please request a new one.';
export const tooManySignInsMessage = (minutes: number) => `Too many sign-in attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`;

export interface RequestMeta {
  ip: string;
  userAgent: string | null;
  /** the language the visitor reads the site in (their choice, else their browser's): a new customer starts with it */
  language?: Language;
}

/** A path on this site to return to after sign-in, or /dashboard; never another origin. */
export function safeNextPath(next: string | undefined | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/dashboard';
  if (/[\u0000-\u001f]/.test(next)) return '/dashboard';
  if (next === '/' || next.startsWith('/email-signin') || next.startsWith('/verify-email')) return '/dashboard';
  return next;
}

async function enforceRateLimit(db: Db, key: string, limit: number) {
  const { allowed, retryAfterSeconds } = await hitRateLimit(db, key, limit, RATE_WINDOW_SECONDS);
  if (!allowed) {
    const minutes = Math.ceil(retryAfterSeconds / 60);
    throw new AppError(
      429,
      tooManySignInsMessage(minutes),
      {},
      { 'retry-after': String(retryAfterSeconds) },
    );
  }
}

/**
 * The shop's record of `email`. When the shop cannot be reached a customer cannot be told apart
 * from a stranger (503), but an admin still gets in: they need SwapPoints most when the shop is down.
 */
async function findShopCustomer(ctx: AppContext, email: string, options: { admin?: boolean } = {}) {
  try {
    return await ctx.shop.findCustomer(email);
  } catch (error) {
    if (!(error instanceof ShopError)) throw error;
    ctx.log.error('shop customer lookup failed', { error: error.message });
    if (options.admin) return null;
    throw new AppError(503, SHOP_UNAVAILABLE_MESSAGE, { serverError: true });
  }
}

/** POST /api/shopify/check-customer */
export async function checkCustomer(ctx: AppContext, rawEmail: string, meta: RequestMeta) {
  if (!isValidEmail(rawEmail)) throw badRequest(INVALID_EMAIL_MESSAGE);
  await enforceRateLimit(ctx.db, `check:ip:${meta.ip}`, ctx.settings.signInLimitPerIp);
  const customer = await findShopCustomer(ctx, normalizeEmail(rawEmail));
  if (!customer) throw new AppError(404, notInShopMessage(rawEmail.trim()), { exists: false, shopifyId: null, notInShopify: true });
  return { exists: true, shopifyId: customer.shopCustomerId };
}

/** POST /api/auth/login: emails a one-time sign-in link to a shop customer. */
export async function requestSignInLink(ctx: AppContext, input: { email: string; next?: string }, meta: RequestMeta) {
  if (!isValidEmail(input.email)) throw badRequest(INVALID_EMAIL_MESSAGE);
  const email = normalizeEmail(input.email);
  await enforceRateLimit(ctx.db, `signin:ip:${meta.ip}`, ctx.settings.signInLimitPerIp);

  const admin = await isAdminEmail(ctx.db, ctx.settings.adminEmails, email);
  const customer = await findShopCustomer(ctx, email, { admin });
  if (!customer && !admin) {
    throw new AppError(422, notInShopMessage(input.email.trim()), { notInShopify: true });
  }
  const sent = { sent: true as const, email, message: `Account found for ${email}. We've emailed you a sign-in link.` };
  // Counted per email *and* address: asking from many addresses cannot lock the customer out of
  // their own phone. Past the limit the answer is the same, only no more mail goes out.
  const pair = await hitRateLimit(ctx.db, `signin:email:${email}:ip:${meta.ip}`, ctx.settings.signInLimitPerEmail, RATE_WINDOW_SECONDS);
  if (!pair.allowed) return sent;

  const token = newSecretToken();
  const link = `${ctx.settings.publicUrl}/verify-email?token=${token}`;
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('sign_in_tokens')
      .values({
        email,
        token_hash: hashToken(token),
        next_path: safeNextPath(input.next),
        requested_ip: meta.ip,
        expires_at: new Date(Date.now() + SIGN_IN_LINK_TTL_MINUTES * 60_000),
      })
      .execute();
    // their saved language; someone who has never signed in gets the one they are reading the site in
    const lang = (await languageByEmail(trx, email)) ?? meta.language ?? 'en';
    await enqueueMail(trx, signInMail(email, link, SIGN_IN_LINK_TTL_MINUTES, lang));
  });
  ctx.mailer.kick();
  return sent;
}

function verifyFailure(status: number, message: string): AppError {
  return new AppError(status, message, { success: false, message });
}

/** Why a link that cannot be consumed is refused: unknown or for another email, used, or expired. */
async function linkFailure(ctx: AppContext, email: string, tokenHash: string): Promise<AppError> {
  const known = await ctx.db
    .selectFrom('sign_in_tokens')
    .select(['email', 'used_at', 'expires_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!known || known.email !== email) return verifyFailure(400, LINK_INVALID);
  if (known.used_at) return verifyFailure(410, LINK_USED);
  return verifyFailure(410, LINK_EXPIRED);
}

/** Throws unless the link is live for `email`; spends nothing, so a later failure (shop down) leaves it usable. */
async function checkSignInToken(ctx: AppContext, email: string, tokenHash: string): Promise<void> {
  const live = await ctx.db
    .selectFrom('sign_in_tokens')
    .select('id')
    .where('token_hash', '=', tokenHash)
    .where('email', '=', email)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  if (!live) throw await linkFailure(ctx, email, tokenHash);
}

/** Consumes a sign-in link (once, atomically: of two concurrent uses one wins). */
async function consumeSignInToken(ctx: AppContext, email: string, tokenHash: string) {
  const consumed = await ctx.db
    .updateTable('sign_in_tokens')
    .set({ used_at: new Date() })
    .where('token_hash', '=', tokenHash)
    .where('email', '=', email)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .returning(['next_path'])
    .executeTakeFirst();
  if (consumed) return consumed;
  throw await linkFailure(ctx, email, tokenHash);
}

/** GET /api/auth/profile: the signed-in user's profile, as their session's read found it. */
export function sessionProfile(user: CurrentUser): ProfileDetails {
  return { uid: user.id, email: user.email, name: user.name, isAdmin: user.isAdmin, phone: user.phone, whatsapp: user.whatsapp, language: user.language };
}

/** The profile with the customer's phone, WhatsApp choice and language. */
export async function profileDetails(ctx: AppContext, userId: string): Promise<ProfileDetails> {
  const user = await profileOf(ctx.db, userId);
  return { ...toProfile(user), phone: user.phone, whatsapp: user.whatsapp_opt_in, language: user.language };
}

/** PUT /api/profile: saves the change (users/service.ts checks it), answers the profile as it is now. */
export async function saveProfile(ctx: AppContext, userId: string, change: ProfileChange): Promise<ProfileDetails> {
  await updateProfile(ctx.db, userId, change);
  return profileDetails(ctx, userId);
}

export function toProfile(user: { id: string; email: string; name: string | null; is_admin: boolean }): UserProfile {
  return { uid: user.id, email: user.email, name: user.name, isAdmin: user.is_admin };
}

/** POST /api/auth/verify-email: the link's token and the email it was sent to open a session. */
export async function verifySignIn(ctx: AppContext, input: { email?: string; token?: string }, meta: RequestMeta) {
  const rawEmail = input.email?.trim() ?? '';
  if (!rawEmail) throw verifyFailure(400, NO_EMAIL_MESSAGE);
  if (!input.token?.trim()) throw verifyFailure(400, LINK_INVALID);
  await enforceRateLimit(ctx.db, `verify:ip:${meta.ip}`, ctx.settings.signInLimitPerIp);
  const email = normalizeEmail(rawEmail);
  const tokenHash = hashToken(input.token.trim());
  await checkSignInToken(ctx, email, tokenHash);
  // The shop first: when it is down (503) the link must stay usable for a retry.
  const customer = await findShopCustomer(ctx, email, { admin: await isAdminEmail(ctx.db, ctx.settings.adminEmails, email) });
  const { next_path } = await consumeSignInToken(ctx, email, tokenHash);
  const user = await saveSignedInUser(ctx.db, email, customer, { makeAdmin: isListedAdmin(ctx.settings.adminEmails, email), language: meta.language });
  if (!customer && !user.is_admin) {
    throw new AppError(422, notInShopMessage(rawEmail), { success: false, notInShopify: true, message: notInShopMessage(rawEmail) });
  }

  const expiresAt = new Date(Date.now() + ctx.settings.sessionTtlHours * 3600_000);
  const session = await ctx.db
    .insertInto('sessions')
    .values({ user_id: user.id, expires_at: expiresAt, ip: meta.ip, user_agent: meta.userAgent?.slice(0, 500) ?? null })
    .returning('id')
    .executeTakeFirstOrThrow();
  // the sign-in page says that continuing is agreeing to the terms and privacy notice in force
  await recordAgreement(ctx.db, user.id, currentTermsVersion(ctx.settings));

  return {
    user,
    sessionId: session.id,
    expiresAt,
    // Admins land on their queue unless the link was asked for from another page.
    next: user.is_admin && (next_path ?? '/dashboard') === '/dashboard' ? '/admin' : (next_path ?? '/dashboard'),
    message: `Welcome back! Account found for ${email}. Redirecting to dashboard...`,
  };
}
