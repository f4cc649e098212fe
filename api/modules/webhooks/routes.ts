import { Elysia, t } from 'elysia';
import type { AppContext } from '#api/context.ts';
import { ErrorBody } from '#api/lib/schema.ts';
import type { AuthPlugin } from '#api/modules/auth/plugin.ts';
import { deliverDueWebhooks } from './delivery.ts';
import { CreatedWebhookEndpoint, DeliveriesQuery, EndpointStateBody, NewWebhookEndpointBody, WebhookDelivery, WebhookDeliveryDetail, WebhookEndpoint } from './model.ts';
import { deliveryOr404, listDeliveries, listEndpoints } from './queries.ts';
import { createEndpoint, redeliver, removeEndpoint, setEndpointEnabled } from './service.ts';

const refused = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody };

/** Webhook endpoints and their deliveries (admin only). */
export function webhookRoutes(ctx: AppContext, auth: AuthPlugin) {
  return new Elysia({ prefix: '/admin/webhooks', tags: ['Webhooks'] })
    .use(auth)
    .get('', () => listEndpoints(ctx.db), {
      admin: true,
      response: { 200: t.Array(WebhookEndpoint), ...refused },
      detail: { summary: 'Webhook endpoints', description: 'Every webhook endpoint (secrets are never listed).' },
    })
    .post('', async ({ body, status }) => status(201, await createEndpoint(ctx, body)), {
      admin: true,
      body: NewWebhookEndpointBody,
      response: { 201: CreatedWebhookEndpoint, ...refused },
      detail: { summary: 'Add a webhook endpoint', description: 'Add an endpoint: https only, never a private address; the answer shows its whsec_ secret, once.' },
    })
    .put('/:id', ({ params, body }) => setEndpointEnabled(ctx.db, params.id, body.enabled), {
      admin: true,
      body: EndpointStateBody,
      response: { 200: WebhookEndpoint, ...refused, 404: ErrorBody },
      detail: { summary: 'Turn an endpoint off or on again', description: 'Turning an endpoint on again resets its failure count and sends what waited.' },
    })
    .delete(
      '/:id',
      async ({ params }) => {
        await removeEndpoint(ctx.db, params.id);
        return { success: true as const, id: params.id };
      },
      {
        admin: true,
        response: { 200: t.Object({ success: t.Literal(true), id: t.String() }), ...refused, 404: ErrorBody },
        detail: { summary: 'Remove a webhook endpoint', description: 'Remove an endpoint and its delivery log.' },
      },
    )
    .get('/deliveries', ({ query }) => listDeliveries(ctx.db, query), {
      admin: true,
      query: DeliveriesQuery,
      response: { 200: t.Array(WebhookDelivery), ...refused },
      detail: { summary: 'Webhook deliveries', description: 'Deliveries, newest first (endpoint, failed and limit optional).' },
    })
    .get('/deliveries/:id', ({ params }) => deliveryOr404(ctx.db, params.id), {
      admin: true,
      response: { 200: WebhookDeliveryDetail, ...refused, 404: ErrorBody },
      detail: { summary: 'One webhook delivery', description: 'One delivery with its body and every attempt (status, duration, response excerpt).' },
    })
    .post(
      '/deliveries/:id/redeliver',
      async ({ params }) => {
        const queued = await redeliver(ctx.db, params.id);
        await deliverDueWebhooks(ctx, { limit: 1, onlyId: queued.id });
        return deliveryOr404(ctx.db, queued.id);
      },
      {
        admin: true,
        response: { 200: WebhookDeliveryDetail, ...refused, 404: ErrorBody },
        detail: { summary: 'Redeliver a webhook', description: 'Send a delivery again now (same webhook-id and body).' },
      },
    );
}
