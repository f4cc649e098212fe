import { Elysia } from 'elysia';
import type { AppContext } from '#api/context.ts';
import { guardApiRequest } from '#api/http/request-guard.ts';
import { DATABASE_UNAVAILABLE, isConnectionLost } from '#api/db/resilience.ts';
import { AppError } from '#api/lib/errors.ts';
import { openapiDocs } from '#api/lib/openapi.ts';
import { noteRoute } from '#api/modules/metrics/labels.ts';
import { authRoutes } from '#api/modules/auth/routes.ts';
import { authPlugin, sessionCookieName } from '#api/modules/auth/plugin.ts';
import { creditRoutes } from '#api/modules/credit/routes.ts';
import { shipmentRoutes } from '#api/modules/shipments/routes.ts';
import { requestRoutes } from '#api/modules/requests/routes.ts';
import { healthRoutes } from '#api/modules/health/routes.ts';
import { imageRoutes } from '#api/modules/images/routes.ts';
import { valuationRoutes } from '#api/modules/valuation/routes.ts';
import { warehouseRoutes } from '#api/modules/warehouses/routes.ts';
import { webhookDocumentation } from '#api/openapi-webhooks.ts';
import { webhookRoutes } from '#api/modules/webhooks/routes.ts';
import { analyticsRoutes } from '#api/modules/analytics/routes.ts';
import { legalRoutes } from '#api/modules/auth/terms-routes.ts';
import { whatsappRoutes } from '#api/modules/whatsapp/routes.ts';
import { riskRoutes } from '#api/modules/risk/routes.ts';
import { privacyRoutes } from '#api/modules/privacy/routes.ts';

const API_DESCRIPTION =
  'Trade a used product in for store credit. Sign in with POST /api/auth/login and the mailed link (POST /api/auth/verify-email gives a `sessionToken`), ' +
  'then send it as `Authorization: Bearer`. Every failure is JSON `{ error }` with its status. Changes are announced as signed webhooks (see `webhooks`).';

/** One tag per feature, in the order the reference page lists them. */
const API_TAGS = [
  { name: 'Sign-in', description: 'Magic-link sign-in, the session and the shop customer check.' },
  { name: 'Exchange requests', description: "A customer's trade-in requests: submit, follow, ship, withdraw." },
  { name: 'Credit', description: "A customer's store credit balance at the shop." },
  { name: 'Valuation', description: 'The quote a customer sees before submitting.' },
  { name: 'Images', description: 'Product photos: the Cloudinary-compatible upload and the stored files.' },
  { name: 'Admin: exchange requests', description: 'The admin queue: review, approve or decline, receive, credit, delete.' },
  { name: 'Admin: credit history', description: 'The credit ledger and its pushes to the shop.' },
  { name: 'Admin: valuation', description: 'The valuation guide: entries, condition multipliers, rules, minimum, bonus campaigns.' },
  { name: 'Admin: risk', description: 'The block list; duplicate-photo flags are read on the admin request detail.' },
  { name: 'Warehouses', description: 'Where approved items are shipped.' },
  { name: 'Webhooks', description: 'Endpoints that receive signed event deliveries, and the delivery log.' },
  { name: 'Analytics', description: 'Figures for the admin dashboard.' },
  { name: 'WhatsApp', description: "The WhatsApp Cloud API's webhook: subscription check, delivery statuses, STOP replies." },
  { name: 'Privacy', description: "A customer's own data (download, delete the account) and Shopify's compliance webhooks." },
  { name: 'Health', description: 'Liveness and database reachability for load balancers.' },
  { name: 'Carriers', description: 'Tracking events that carriers post for prepaid return labels.' },
];

const INTERNAL_ERROR = 'Something went wrong on our side. Please try again later.';

function validationMessage(error: unknown): string {
  const e = error as { customError?: unknown; all?: { summary?: string }[] };
  if (typeof e.customError === 'string') return e.customError;
  return e.all?.[0]?.summary ?? 'The request is not valid.';
}

/**
 * The SwapPoints HTTP API: every business rule sits behind it. `/api/*` is the JSON contract;
 * the image service (`/image/upload`, `/media/*`) is mounted beside it.
 */
export function createApp(ctx: AppContext) {
  const auth = authPlugin(ctx);

  const api = new Elysia({ prefix: '/api' })
    .use(
      openapiDocs({
        info: { title: 'SwapPoints API', version: '1.0.0', description: API_DESCRIPTION },
        publicUrl: ctx.settings.publicUrl,
        cookieName: sessionCookieName(ctx.settings.publicUrl),
        tags: API_TAGS,
        webhooks: webhookDocumentation(),
      }),
    )
    .use(authRoutes(ctx, auth))
    .use(legalRoutes(ctx, auth))
    .use(creditRoutes(ctx, auth))
    .use(requestRoutes(ctx, auth))
    .use(shipmentRoutes(ctx, auth))
    .use(warehouseRoutes(ctx, auth))
    .use(healthRoutes(ctx))
    .use(valuationRoutes(ctx, auth))
    .use(webhookRoutes(ctx, auth))
    .use(analyticsRoutes(ctx, auth))
    .use(whatsappRoutes(ctx))
    .use(riskRoutes(ctx, auth))
    .use(privacyRoutes(ctx, auth));

  return new Elysia()
    .onRequest(({ request }) => guardApiRequest(request, ctx.settings.publicUrl))
    // the matched route's template labels the request in /metrics (never the raw path)
    .onTransform({ as: 'global' }, ({ request, route }) => noteRoute(request, route))
    .onError(({ code, error, request, set, status }) => {
      set.headers['cache-control'] = 'no-store';
      const unexpected = () => {
        const requestId = request.headers.get('x-request-id') ?? undefined;
        ctx.log.error('unexpected error', {
          requestId,
          method: request.method,
          path: new URL(request.url).pathname,
          error,
          stack: error instanceof Error ? error.stack?.split('\n').slice(0, 6).join(' | ') : undefined,
        });
        return status(500, { error: INTERNAL_ERROR, requestId });
      };
      if (error instanceof AppError) {
        Object.assign(set.headers, error.headers);
        return status(error.status, error.body);
      }
      switch (code) {
        case 'VALIDATION':
          // A response that breaks its own schema is our fault, not the client's.
          if ((error as { type?: string }).type !== 'response') return status(400, { error: validationMessage(error) });
          return unexpected();
        case 'PARSE':
          return status(400, { error: 'The request body could not be read. Send JSON (or multipart for uploads).' });
        case 'NOT_FOUND': {
          const { pathname } = new URL(request.url);
          return status(404, { error: `No such endpoint: ${request.method} ${pathname}` });
        }
        case 'INVALID_COOKIE_SIGNATURE':
          return status(401, { error: 'Please sign in to continue.' });
        default:
          if (isConnectionLost(error)) {
            ctx.log.warn('database unavailable', { requestId: request.headers.get('x-request-id') ?? undefined, path: new URL(request.url).pathname, error: (error as Error).message });
            set.headers['retry-after'] = '5';
            return status(503, { error: DATABASE_UNAVAILABLE });
          }
          return unexpected();
      }
    })
    .use(api)
    .use(imageRoutes(ctx, auth));
}

export type App = ReturnType<typeof createApp>;
