import { Elysia, t } from 'elysia';
import type { AppContext } from '#api/context.ts';
import { ErrorBody } from '#api/lib/schema.ts';
import type { AuthPlugin } from '#api/modules/auth/plugin.ts';
import { sessionCookieName } from '#api/modules/auth/plugin.ts';
import { receiveComplianceWebhook } from './compliance-webhooks.ts';
import { eraseCustomer } from './erase.ts';
import { exportCustomer } from './export.ts';
import { AccountErased, WebhookAccepted, ZipFile } from './model.ts';
import { ERASED_MESSAGE, EXPORT_FILE_NAME, type ComplianceTopic } from './rules.ts';

const WEBHOOK_DESCRIPTION =
  'Shopify\'s mandatory compliance webhook. Verified with X-Shopify-Hmac-Sha256 (base64 HMAC-SHA256 of the raw body under the app\'s client secret, SHOPIFY_CLIENT_SECRET): ' +
  '401 when it is missing or wrong, and nothing is done. X-Shopify-Topic, when sent, must match the address. The webhook is recorded once per X-Shopify-Webhook-Id ' +
  '(a repeat answers `duplicate: true` and does nothing again) and its work runs in the job loop (`swappoints jobs list --kind privacy`).';

const WORK: Record<ComplianceTopic, string> = {
  'customers/data_request': 'Prepares the customer\'s export (a ZIP) for the shop owner under DATA_DIR/exports.',
  'customers/redact': 'Erases the customer (as `swappoints privacy erase`).',
  'shop/redact': 'Erases every customer of the shop.',
};

/** A customer's own data (the ZIP, deleting the account) and Shopify's compliance webhooks. */
export function privacyRoutes(ctx: AppContext, auth: AuthPlugin) {
  const cookieName = sessionCookieName(ctx.settings.publicUrl);
  const secureCookie = ctx.settings.publicUrl.startsWith('https:');

  const own = new Elysia({ prefix: '/privacy', tags: ['Privacy'] })
    .use(auth)
    .get(
      '/export',
      async ({ user }) => {
        const { zip } = await exportCustomer(ctx, user);
        return new Response(zip as Uint8Array<ArrayBuffer>, {
          headers: { 'content-type': 'application/zip', 'content-disposition': `attachment; filename="${EXPORT_FILE_NAME}"`, 'cache-control': 'no-store' },
        });
      },
      {
        auth: true,
        response: { 200: ZipFile, 401: ErrorBody },
        detail: {
          summary: 'Download my data',
          description: 'Everything held about the signed-in customer as a ZIP: swappoints-data.json (profile, requests, shipping details, credit, mails, sessions) and their photos. Only ever one\'s own: there is no way to name someone else.',
        },
      },
    )
    .delete(
      '/account',
      async ({ user, cookie }) => {
        const report = await eraseCustomer(ctx, user.email);
        cookie[cookieName]!.set({ value: '', httpOnly: true, sameSite: 'lax', secure: secureCookie, path: '/', maxAge: 0 });
        return { erased: true as const, message: ERASED_MESSAGE, pseudonym: report.pseudonym };
      },
      {
        auth: true,
        response: { 200: AccountErased, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody },
        detail: {
          summary: 'Delete my account',
          description: 'Erases the signed-in customer (email, name, photos, shipping notes, mails, sessions, sign-in links; credit already given stays under a pseudonym) and signs them out. 409 with the reason while a parcel is on its way.',
        },
      },
    );

  const receive = (topic: ComplianceTopic) => async ({ request }: { request: Request }) =>
    receiveComplianceWebhook(ctx, { topic, rawBody: await request.text(), headers: request.headers });
  // the signature covers the raw body: Elysia must not parse it first (read once, as text, in receive)
  const hook = (topic: ComplianceTopic) => ({
    parse: 'none' as const,
    response: { 200: WebhookAccepted, 400: ErrorBody, 401: ErrorBody },
    detail: {
      summary: `Shopify compliance webhook ${topic}`,
      description: `${WORK[topic]} ${WEBHOOK_DESCRIPTION}`,
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' as const, description: `Shopify's ${topic} payload` } } } },
    },
  });
  const compliance = new Elysia({ prefix: '/shopify/webhooks', tags: ['Privacy'] })
    .post('/customers/data_request', receive('customers/data_request'), hook('customers/data_request'))
    .post('/customers/redact', receive('customers/redact'), hook('customers/redact'))
    .post('/shop/redact', receive('shop/redact'), hook('shop/redact'));

  return new Elysia().use(own).use(compliance);
}
