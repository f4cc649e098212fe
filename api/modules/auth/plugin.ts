import { jwt } from '@elysiajs/jwt';
import { Elysia } from 'elysia';
import type { AppContext } from '#api/context.ts';
import { SIGNED_IN } from '#api/lib/openapi.ts';
import { isUuid } from '#api/lib/request-meta.ts';
import { pageSessionsOf } from './page-sessions.ts';
import { loadSession, type CurrentUser } from './sessions.ts';

export const SESSION_COOKIE = 'sp_session';
/** On https the cookie is `__Host-` prefixed: browsers then refuse it unless Secure, host-only and Path=/. */
export const sessionCookieName = (publicUrl: string) => (publicUrl.startsWith('https:') ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const SIGN_IN_REQUIRED = 'Please sign in to continue.';
const SESSION_ENDED = 'Your session has ended. Please sign in again.';
const ADMIN_REQUIRED = 'You need admin access for this.';
export const CROSS_SITE_MESSAGE = 'This request came from another site and was refused.';

function bearerToken(header: string | null): string | undefined {
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1];
}

/** A cookie-authenticated change must come from our own pages (Origin / Sec-Fetch-Site), not another site. */
export function isCrossSite(request: Request, publicUrl: string): boolean {
  const fetchSite = request.headers.get('sec-fetch-site');
  if (fetchSite && fetchSite !== 'same-origin' && fetchSite !== 'none') return true;
  const origin = request.headers.get('origin');
  if (!origin) return false;
  if (origin === 'null') return true;
  try {
    const host = new URL(origin).host;
    return host !== request.headers.get('host') && host !== new URL(publicUrl).host;
  } catch {
    return true;
  }
}

/**
 * Authentication as named macros: a route says `{ auth: true }` (any signed-in user) or
 * `{ admin: true }` (admins only) and receives `user`. Tokens come from `Authorization: Bearer`
 * or the session cookie; every token is checked against the sessions table, so a logout or a
 * revoked admin takes effect at once.
 */
type Verify = (token: string, options: { algorithms: string[] }) => Promise<false | Record<string, unknown>>;
type Authenticated = { user: CurrentUser } | { status: 401 | 403; error: string };

/**
 * Verified tokens, so a signature is checked once rather than on every request (it was a fifth of
 * a list request's CPU). The session behind a token is still read from the database every time:
 * a logout or a revoked admin takes effect at once.
 */
function verifiedTokenCache(limit = 10_000) {
  const claimsByToken = new Map<string, Record<string, unknown>>();
  return async (token: string, verify: Verify) => {
    const cached = claimsByToken.get(token);
    if (cached && typeof cached.exp === 'number' && cached.exp * 1000 > Date.now()) return cached;
    const claims = await verify(token, { algorithms: ['HS256'] });
    if (!claims) return false;
    if (claimsByToken.size >= limit) claimsByToken.delete(claimsByToken.keys().next().value!);
    claimsByToken.set(token, claims);
    return claims;
  };
}

/**
 * Checks of one session that run at the same time (a page's in-process API calls, made together)
 * share one database read; nothing is kept once it has answered.
 */
function sharedWhileInFlight() {
  const inFlight = new Map<string, Promise<CurrentUser | null>>();
  return (key: string, load: () => Promise<CurrentUser | null>) => {
    let pending = inFlight.get(key);
    if (!pending) {
      pending = load().finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
    }
    return pending;
  };
}

export function authPlugin(ctx: AppContext) {
  const verifyCached = verifiedTokenCache();
  const sessionRead = sharedWhileInFlight();
  const cookieName = sessionCookieName(ctx.settings.publicUrl);

  const authenticate = async (request: Request, cookieToken: unknown, verify: Verify): Promise<Authenticated> => {
    const headerToken = bearerToken(request.headers.get('authorization'));
    const token = headerToken ?? (typeof cookieToken === 'string' && cookieToken ? cookieToken : undefined);
    if (!token) return { status: 401, error: SIGN_IN_REQUIRED };
    if (!headerToken && !SAFE_METHODS.has(request.method) && isCrossSite(request, ctx.settings.publicUrl)) {
      return { status: 403, error: CROSS_SITE_MESSAGE };
    }
    const claims = await verifyCached(token, verify);
    if (!claims || !isUuid(claims.sid) || !isUuid(claims.sub)) return { status: 401, error: SESSION_ENDED };
    const key = `${claims.sid}:${claims.sub}`;
    const read = () => sessionRead(key, () => loadSession(ctx.db, claims.sid as string, claims.sub as string, ctx.settings.sessionIdleHours));
    // a page render's later calls reuse its first read (page-sessions.ts)
    const page = pageSessionsOf(request);
    const user = await (page ? (page.get(key) ?? page.set(key, read()).get(key)!) : read());
    return user ? { user } : { status: 401, error: SESSION_ENDED };
  };

  return new Elysia({ name: 'auth' })
    .use(jwt({ name: 'jwt', secret: ctx.settings.jwtSecret, alg: 'HS256' }))
    .macro({
      auth: {
        detail: { security: SIGNED_IN },
        async resolve({ request, cookie, jwt, status }) {
          const result = await authenticate(request, cookie[cookieName]?.value, jwt.verify);
          return 'error' in result ? status(result.status, { error: result.error }) : result;
        },
      },
      admin: {
        detail: { security: SIGNED_IN },
        async resolve({ request, cookie, jwt, status }) {
          const result = await authenticate(request, cookie[cookieName]?.value, jwt.verify);
          if ('error' in result) return status(result.status, { error: result.error });
          if (!result.user.isAdmin) return status(403, { error: ADMIN_REQUIRED });
          return result;
        },
      },
    });
}

export type AuthPlugin = ReturnType<typeof authPlugin>;
