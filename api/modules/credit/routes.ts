import { Elysia, t } from 'elysia';
import type { AppContext } from '#api/context.ts';
import type { PushStatus } from '#api/db/types.ts';
import { csvDownload } from '#api/lib/csv.ts';
import { listAnswer, pagedByDefault } from '#api/lib/paging.ts';
import { ErrorBody } from '#api/lib/schema.ts';
import type { AuthPlugin } from '#api/modules/auth/plugin.ts';
import { actorOf } from '#api/modules/requests/events.ts';
import { CreditedExchangeRequest, ExchangeRequest } from '#api/modules/requests/model.ts';
import { withImages } from '#api/modules/requests/queries.ts';
import { creditHistoryCsv } from './export.ts';
import { listCreditHistory, retryCreditPush } from './history.ts';
import { assignCredit } from './ledger.ts';
import { CreditBody, CreditExportQuery, CreditHistoryQuery, CreditRecord, CreditResponse, DeclineOfferBody, ReturnShipmentBody } from './model.ts';
import { acceptOffer, declineOffer } from './offer-answer.ts';
import { readReturnShipment, recordReturnShipment } from './returns.ts';
import { getCustomerCredit } from './service.ts';

const adminOnly = { 401: ErrorBody, 403: ErrorBody };
const change = { 200: ExchangeRequest, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, ...adminOnly };

/** Store credit: the customer's balance, assigning credit to a request, and the admin's credit history, its retries and its CSV. */
export function creditRoutes(ctx: AppContext, auth: AuthPlugin) {
  const one = async (row: Parameters<typeof withImages>[1][number]) => (await withImages(ctx.db, [row]))[0]!;

  const balance = new Elysia({ tags: ['Credit'] }).use(auth).get('/shopify/credit', ({ user }) => getCustomerCredit(ctx, user), {
    auth: true,
    response: { 200: CreditResponse, 401: ErrorBody, 404: ErrorBody, 502: ErrorBody, 504: ErrorBody },
    detail: { summary: 'The signed-in customer\'s store credit', description: 'The balance of store credit at the shop for the signed-in customer, in the shop\'s currency. 502 or 504 when the shop does not answer as it should.' },
  });

  const history = new Elysia({ prefix: '/admin/credit-history', tags: ['Admin: credit history'] })
    .use(auth)
    .get(
      '',
      async ({ query, set }) => listAnswer(set, await listCreditHistory(ctx.db, pagedByDefault(query))),
      {
        admin: true,
        query: CreditHistoryQuery,
        response: { 200: t.Array(CreditRecord), 400: ErrorBody, ...adminOnly },
        detail: { summary: 'The credit history', description: 'Every exchange credit, newest first (q: part of a user ID or exchange ID; status; page, pageSize).' },
      },
    )
    .post('/:id/retry', ({ params }) => retryCreditPush(ctx, params.id), {
      admin: true,
      response: { 200: CreditRecord, 404: ErrorBody, 409: ErrorBody, ...adminOnly },
      detail: { summary: 'Push a failed credit to the shop again, now', description: 'Retries the push of one ledger row to the shop at once, with the same idempotency key; 409 when it is not a failed push.' },
    })
    .get(
      '/export.csv',
      ({ query }) => {
        const day = new Date().toISOString().slice(0, 10);
        return csvDownload(creditHistoryCsv(ctx.db, { q: query.q, status: query.status as PushStatus | undefined }), `credit-history-${day}.csv`);
      },
      {
        admin: true,
        query: CreditExportQuery,
        response: { 200: t.String({ contentMediaType: 'text/csv', description: 'the CSV file, a header line then one credit a line' }), 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
        detail: { summary: 'The credit history as CSV', description: 'The credit history as CSV (q: part of a user ID or exchange ID; status), newest first.' },
      },
    );

  const assign = new Elysia({ prefix: '/admin/exchange-requests', tags: ['Admin: exchange requests'] })
    .use(auth)
    .put(
      '/:id/credit',
      async ({ params, body, user }) => {
        const { request, ledger } = await assignCredit(ctx, actorOf(user, 'admin'), params.id, body);
        return { ...(await one(request)), loyaltyPointsSuccess: ledger?.push_status === 'success' };
      },
      {
        admin: true,
        body: CreditBody,
        response: { ...change, 200: CreditedExchangeRequest },
        detail: { summary: 'Assign store credit', description: 'Assign store credit to a received item (once); it is pushed to the shop at once. Below the quote the customer saw (estimate plus bonus) no credit is given yet: the request answers with offer.status pending, and the customer accepts or declines it.' },
      },
    );

  const offer = new Elysia({ prefix: '/exchange', tags: ['Exchange requests'] })
    .use(auth)
    .post('/:id/offer/accept', async ({ params, user }) => one((await acceptOffer(ctx, actorOf(user, 'customer'), params.id, { by: 'customer', userId: user.id }))!), {
      auth: true,
      response: { 200: ExchangeRequest, 404: ErrorBody, 409: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      detail: {
        summary: 'Accept the revised offer on your request',
        description:
          'Accepts the offer (credit below the quote) waiting on the request: its credit is given at once, as the credit step gives it, and pushed to the shop. 409 with a sentence when there is no offer waiting or it was already accepted or declined; someone else\'s request is 404.',
      },
    })
    .post('/:id/offer/decline', async ({ params, body, user }) => one(await declineOffer(ctx, actorOf(user, 'customer'), user.id, params.id, body)), {
      auth: true,
      body: DeclineOfferBody,
      response: { 200: ExchangeRequest, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      detail: {
        summary: 'Decline the revised offer on your request',
        description:
          "Declines the offer before its answer date: choice 'return' (with the address to send the item back to) or 'recycle' (no credit). The request is closed as declined. 409 once the offer is answered or its date has passed.",
      },
    });

  const returns = new Elysia({ prefix: '/admin/exchange-requests', tags: ['Admin: exchange requests'] })
    .use(auth)
    .post('/:id/return', async ({ params, body, user }) => one(await recordReturnShipment(ctx, actorOf(user, 'admin'), params.id, readReturnShipment(body))), {
      admin: true,
      body: ReturnShipmentBody,
      response: change,
      detail: {
        summary: 'Record the return shipment of a declined offer',
        description: 'The carrier and tracking number with which the item of a declined offer was sent back; the customer is mailed them. 409 when no return waits to be shipped or it was already recorded.',
      },
    });

  return new Elysia().use(balance).use(assign).use(offer).use(returns).use(history);
}
