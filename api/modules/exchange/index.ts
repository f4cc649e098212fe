import { Elysia, t } from 'elysia';
import type { AppContext } from '#api/context.ts';
import { ErrorBody } from '#api/modules/auth/model.ts';
import type { AuthPlugin } from '#api/modules/auth/plugin.ts';
import { eventsOf } from '#api/modules/requests/events.ts';
import { CreateExchangeBody, CustomerListQuery, Deleted, ExchangeRequest, ExchangeRequestDetail, ShippingBody } from '#api/modules/requests/model.ts';
import { listCustomerRequests, ownRequestOr404, withImages } from '#api/modules/requests/queries.ts';
import { cancelRequest } from '#api/modules/requests/remove.ts';
import { createRequest, submitShipping } from '#api/modules/requests/service.ts';
import { correctShipping } from '#api/modules/requests/shipping.ts';
import { creditPushStatusOf } from '#api/modules/requests/queries.ts';
import { balanceOrNull } from '#api/modules/credit/service.ts';
import { valuationDetailOf } from '#api/modules/valuation/credit.ts';
import { pagedByDefault } from '#api/lib/paging.ts';

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
        response: { 201: t.Object({ id: t.String({ description: 'the new request’s id' }) }), 400: ErrorBody, 409: ErrorBody, ...signedIn },
        detail: { summary: 'Submit a used product for exchange, with 1 to 5 uploaded images; an item the shop does not take is refused (409 with the reason)' },
      },
    )
    .get(
      '',
      async ({ query, user, set }) => {
        const { items, total } = await listCustomerRequests(ctx.db, user.id, pagedByDefault(query));
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
        const [request, events, valuation, balance, creditPushStatus] = await Promise.all([
          one(row),
          eventsOf(ctx.db, row.id, 'customer'),
          valuationDetailOf(ctx.db, row.id),
          balanceOrNull(ctx, user.id),
          creditPushStatusOf(ctx.db, row.id),
        ]);
        return { ...request, ...valuation, events, totalShopifyCredit: balance, totalLoyaltyPoints: balance, creditPushStatus };
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
    })
    .put('/:id/shipping', async ({ params, body, user }) => one(await correctShipping(ctx, user, params.id, body)), {
      auth: true,
      body: ShippingBody,
      response: { 200: ExchangeRequest, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, ...signedIn },
      detail: { summary: 'Correct the shipping details of your request until its item is received' },
    });
}
