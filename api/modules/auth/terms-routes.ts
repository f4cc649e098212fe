import { Elysia } from 'elysia';
import type { AppContext } from '#api/context.ts';
import { ErrorBody } from '#api/lib/schema.ts';
import type { AuthPlugin } from './plugin.ts';
import { AgreementBody, TermsAgreement } from './terms-model.ts';
import { agreementOf, agreeToTerms } from './terms.ts';

/** The terms and privacy notice a signed-in user agreed to (recorded at each sign-in), and agreeing to a new version. */
export function legalRoutes(ctx: AppContext, auth: AuthPlugin) {
  return new Elysia({ prefix: '/legal', tags: ['Sign-in'] })
    .use(auth)
    .get('/agreement', ({ user }) => agreementOf(ctx, user.id, user.latestAgreement), {
      auth: true,
      response: { 200: TermsAgreement, 401: ErrorBody },
      detail: {
        summary: 'The terms the signed-in user agreed to',
        description: 'Signing in records agreement to the terms and privacy notice in force (the sign-in page says so). `required` is true when they changed since: pages then ask again.',
      },
    })
    .post('/agreement', ({ user, body }) => agreeToTerms(ctx, user.id, body.version), {
      auth: true,
      body: AgreementBody,
      response: { 200: TermsAgreement, 400: ErrorBody, 401: ErrorBody, 409: ErrorBody },
      detail: {
        summary: 'Agree to the current terms',
        description: 'Records, with the time, that the signed-in user agreed to `version`, which must be the current one (409 when the terms changed since they were shown). Agreeing twice keeps the first time.',
      },
    });
}
