import { jwt } from '@elysiajs/jwt';
import { Elysia } from 'elysia';
import type { AppContext } from '#api/context.ts';
import { isUuid } from '#api/lib/request-meta.ts';
import { loadSession, type CurrentUser } from './service.ts';

export const SESSION_COOKIE = 'sp_session';
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
export function authPlugin(ctx: AppContext) {
  const resolveUser = async (
    request: Request,
    cookieToken: string | undefined,
    verify: (token: string) => Promise<false | Record<string, unknown>>,
  ): Promise<CurrentUser | 401 | 'cross-site'> => {
    const headerToken = bearerToken(request.headers.get('authorization'));
    const token = headerToken ?? cookieToken;
    if (!token) return 401;
    if (!headerToken && !SAFE_METHODS.has(request.method) && isCrossSite(request, ctx.settings.publicUrl)) return 'cross-site';
    const claims = await verify(token);
    if (!claims || !isUuid(claims.sid) || !isUuid(claims.sub)) return 401;
    return (await loadSession(ctx.db, claims.sid, claims.sub)) ?? 401;
  };

  return new Elysia({ name: 'auth' })
    .use(jwt({ name: 'jwt', secret: ctx.settings.jwtSecret, alg: 'HS256' }))
    .macro({
      auth: {
        async resolve({ request, cookie, jwt, status }) {
          const token = cookie[SESSION_COOKIE]?.value;
          const hadToken = Boolean(token || request.headers.get('authorization'));
          const user = await resolveUser(request, typeof token === 'string' ? token : undefined, (t) =>
            jwt.verify(t, { algorithms: ['HS256'] }),
          );
          if (user === 'cross-site') return status(403, { error: CROSS_SITE_MESSAGE });
          if (user === 401) return status(401, { error: hadToken ? SESSION_ENDED : SIGN_IN_REQUIRED });
          return { user };
        },
      },
      admin: {
        async resolve({ request, cookie, jwt, status }) {
          const token = cookie[SESSION_COOKIE]?.value;
          const hadToken = Boolean(token || request.headers.get('authorization'));
          const user = await resolveUser(request, typeof token === 'string' ? token : undefined, (t) =>
            jwt.verify(t, { algorithms: ['HS256'] }),
          );
          if (user === 'cross-site') return status(403, { error: CROSS_SITE_MESSAGE });
          if (user === 401) return status(401, { error: hadToken ? SESSION_ENDED : SIGN_IN_REQUIRED });
          if (!user.isAdmin) return status(403, { error: ADMIN_REQUIRED });
          return { user };
        },
      },
    });
}

export type AuthPlugin = ReturnType<typeof authPlugin>;
