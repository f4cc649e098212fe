import { Elysia, t } from 'elysia';
import type { AppContext } from '#api/context.ts';
import { ErrorBody } from '#api/modules/auth/model.ts';
import type { AuthPlugin } from '#api/modules/auth/plugin.ts';
import { eventsOf } from '#api/modules/requests/events.ts';
import { CreateExchangeBody, CustomerListQuery, Deleted, ExchangeRequest, ExchangeRequestDetail, ShippingBody } from '#api/modules/requests/model.ts';
import { listCustomerRequests, ownRequestOr404, withImages } from '#api/modules/requests/queries.ts';
import { cancelRequest } from '#api/modules/requests/remove.ts';
import { createRequest, submitShipping } from '#api/modules/requests/service.ts';

const signedIn = { 401: ErrorBody, 403: ErrorBody };

/** The customer's exchange requests: create, list, read, cancel while pending, and add shipping details. */
export function exchangeRoutes(ctx: AppContext, auth: AuthPlugin) {
  const one = async (row: Parameters<typeof withImages>[1][number]) => (await withImages(ctx.db, [row]))[0]!;

  return new Elysia({ prefix: '/exchange', tags: ['Exchange requests'] })
    .use(auth)
    .post(
      '',
      async ({ body, user, status }) => {
        const row = await createRequest(ctx, user, body);
        return status(201, { id: row.id });
      },
      {
        auth: true,
        body: CreateExchangeBody,
        response: { 201: t.Object({ id: t.String({ description: 'the new request’s id' }) }), 400: ErrorBody, ...signedIn },
        detail: { summary: 'Submit a used product for exchange, with 1 to 5 uploaded images' },
      },
    )
    .get(
      '',
      async ({ query, user, set }) => {
        const { items, total } = await listCustomerRequests(ctx.db, user.id, query);
        set.headers['x-total-count'] = String(total);
        return items;
      },
      {
        auth: true,
        query: CustomerListQuery,
        response: { 200: t.Array(ExchangeRequest), 400: ErrorBody, ...signedIn },
        detail: { summary: "The signed-in customer's requests, newest first (page, pageSize, q, status optional; total in X-Total-Count)" },
      },
    )
    .get(
      '/:id',
      async ({ params, user }) => {
        const row = await ownRequestOr404(ctx.db, user.id, params.id);
        return { ...(await one(row)), events: await eventsOf(ctx.db, row.id, 'customer') };
      },
      {
        auth: true,
        response: { 200: ExchangeRequestDetail, 404: ErrorBody, ...signedIn },
        detail: { summary: 'One of your requests with its timeline' },
      },
    )
    .delete(
      '/:id',
      async ({ params, user }) => {
        await cancelRequest(ctx, user, params.id);
        return { success: true as const, id: params.id };
      },
      {
        auth: true,
        response: { 200: Deleted, 404: ErrorBody, 409: ErrorBody, ...signedIn },
        detail: { summary: 'Cancel (delete) your request while it is pending' },
      },
    )
    .post('/:id/shipping', async ({ params, body, user }) => one(await submitShipping(ctx, user, params.id, body)), {
      auth: true,
      body: ShippingBody,
      response: { 200: ExchangeRequest, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, ...signedIn },
      detail: { summary: 'Add the shipping details of an approved request; its item is then shipped' },
    });
}
