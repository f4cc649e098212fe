import { Elysia } from 'elysia';
import type { AppContext } from '#api/context.ts';
import { isUuid, requestMeta } from '#api/lib/request-meta.ts';
import { CheckCustomerBody, CheckCustomerResponse, LoggedOut, LoginBody, LoginResponse, ProfileBody, ProfileDetails, VerifyEmailBody, VerifyEmailResponse } from './model.ts';
import { ErrorBody } from '#api/lib/schema.ts';
import { CROSS_SITE_MESSAGE, isCrossSite, sessionCookieName, type AuthPlugin } from './plugin.ts';
import { checkCustomer, requestSignInLink, saveProfile, sessionProfile, toProfile, verifySignIn } from './service.ts';
import { revokeSession } from './sessions.ts';
import { visitorLanguage } from '#api/modules/users/rules.ts';

/** The request's meta and the language its reader reads the site in (their cookie, else Accept-Language). */
const readerMeta = (request: Request) => ({
  ...requestMeta(request),
  language: visitorLanguage({ cookie: request.headers.get('cookie'), acceptLanguage: request.headers.get('accept-language') }),
});

export function authRoutes(ctx: AppContext, auth: AuthPlugin) {
  const secureCookie = ctx.settings.publicUrl.startsWith('https:');
  const cookieName = sessionCookieName(ctx.settings.publicUrl);

  return new Elysia({ tags: ['Sign-in'] })
    .use(auth)
    .post(
      '/auth/login',
      async ({ body, request, status }) => status(202, await requestSignInLink(ctx, body, readerMeta(request))),
      {
        body: LoginBody,
        response: { 202: LoginResponse, 400: ErrorBody, 422: ErrorBody, 429: ErrorBody },
        detail: { summary: 'Email a one-time sign-in link to a shop customer', description: 'Step 1 of sign-in. A customer of the shop gets a one-time link (10 minutes, single use) by mail and the answer is 202; an email the shop does not know is 422. Rate-limited per email and per IP (429).' },
      },
    )
    .post('/shopify/check-customer', async ({ body, request }) => checkCustomer(ctx, body.email, requestMeta(request)), {
      body: CheckCustomerBody,
      response: { 200: CheckCustomerResponse, 400: ErrorBody, 404: ErrorBody, 429: ErrorBody },
      detail: { summary: 'Is this email a customer of the shop?', description: 'Looks the email up in the shop\'s customer directory without signing anyone in. Rate-limited per IP (429).' },
    })
    .post(
      '/auth/verify-email',
      async ({ body, request, jwt, cookie }) => {
        const session = await verifySignIn(ctx, body, readerMeta(request));
        const expiresAt = Math.floor(session.expiresAt.getTime() / 1000);
        const sessionToken = await jwt.sign({
          sub: session.user.id,
          email: session.user.email,
          admin: session.user.is_admin,
          sid: session.sessionId,
          exp: expiresAt,
        });
        cookie[cookieName]!.set({
          value: sessionToken,
          httpOnly: true,
          sameSite: 'lax',
          secure: secureCookie,
          path: '/',
          expires: session.expiresAt,
        });
        const profile = toProfile(session.user);
        return {
          success: true as const,
          message: session.message,
          user: profile,
          userProfile: profile,
          sessionToken,
          expiresAt: session.expiresAt.toISOString(),
          next: session.next,
        };
      },
      {
        body: VerifyEmailBody,
        response: { 200: VerifyEmailResponse, 400: ErrorBody, 410: ErrorBody, 422: ErrorBody, 429: ErrorBody },
        detail: { summary: 'Open a session from a sign-in link', description: 'Step 2 of sign-in: the email and the token from the mailed link. Consumes the link and answers the session: `sessionToken` for `Authorization: Bearer`, also set as the session cookie. An expired or used link is 410.' },
      },
    )
    .get('/auth/profile', ({ user }) => sessionProfile(user), {
      auth: true,
      response: { 200: ProfileDetails, 401: ErrorBody },
      detail: { summary: 'The signed-in user', description: 'Who the session belongs to: id, email, name and whether they are an admin; and their profile: phone (E.164), whether they get WhatsApp updates, language (en or hi).' },
    })
    .put('/profile', ({ user, body }) => saveProfile(ctx, user.id, body), {
      auth: true,
      body: ProfileBody,
      response: { 200: ProfileDetails, 400: ErrorBody, 401: ErrorBody },
      detail: {
        summary: "Change the signed-in user's phone, WhatsApp updates and language",
        description:
          'Each field is optional; what is left out stays. `phone`: a 10-digit Indian mobile number gets +91, any other needs + and its country code; null or empty removes it and opts out. `whatsapp`: true opts in (needs a phone, sent now or saved), false opts out. `language`: en or hi, the language of WhatsApp templates. A bad phone or language is 400 naming the field.',
      },
    })
    .post(
      '/auth/logout',
      async ({ request, cookie, jwt, status }) => {
        // Always clears the cookie, so a stale session can sign out too; revokes the session when the token is ours.
        const bearer = request.headers.get('authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1];
        if (!bearer && isCrossSite(request, ctx.settings.publicUrl)) return status(403, { error: CROSS_SITE_MESSAGE });
        const token = bearer ?? cookie[cookieName]?.value;
        const claims = typeof token === 'string' && token ? await jwt.verify(token, { algorithms: ['HS256'] }) : false;
        if (claims && isUuid(claims.sid)) await revokeSession(ctx.db, claims.sid);
        cookie[cookieName]!.set({ value: '', httpOnly: true, sameSite: 'lax', secure: secureCookie, path: '/', maxAge: 0 });
        return { success: true };
      },
      { response: { 200: LoggedOut, 403: ErrorBody }, detail: { summary: 'End this session and clear its cookie', description: 'Revokes the session the token or cookie names (at once, for every instance) and clears the cookie. Answers 200 even when the session had already ended.' } },
    );
}
