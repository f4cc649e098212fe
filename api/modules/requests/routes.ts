import { Elysia, t } from 'elysia';
import type { AppContext } from '#api/context.ts';
import { listAnswer, pagedByDefault } from '#api/lib/paging.ts';
import { Deleted, ErrorBody, PagingQuery } from '#api/lib/schema.ts';
import { recordAccess } from '#api/modules/access-log/service.ts';
import type { AuthPlugin } from '#api/modules/auth/plugin.ts';
import { adminRequestDetail, customerRequestDetail } from './detail.ts';
import { actorOf } from './events.ts';
import {
  AdminExchangeRequest,
  AdminExchangeRequestDetail,
  AdminListQuery,
  CancelledRequest,
  CountsQuery,
  CreateExchangeBody,
  CustomerListQuery,
  ExchangeRequest,
  ExchangeRequestDetail,
  ReceiveBody,
  ReceivedRequest,
  RequestCounts,
  ShippingBody,
  StatusBody,
  TransitBody,
  WaitingCounts,
} from './model.ts';
import { countAdminTabs, countWaiting, listAdminRequests, listCancelledRequests, listCustomerRequests, withImages, type AdminTab } from './queries.ts';
import { cancelRequest, deleteRequest } from './remove.ts';
import { changeStatus, createRequest, markReceived, submitShipping } from './service.ts';
import { receiveByCode } from './receive.ts';
import { correctShipping, enterShipping } from './shipping.ts';

const signedIn = { 401: ErrorBody, 403: ErrorBody };
const adminOnly = { 401: ErrorBody, 403: ErrorBody };
const change = { 200: ExchangeRequest, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, ...adminOnly };

/**
 * Exchange requests: the customer's (create, list, read, cancel while pending, shipping details)
 * and the admin's (every request, the decisions, receiving, deletion; assigning credit is in credit/routes.ts).
 */
export function requestRoutes(ctx: AppContext, auth: AuthPlugin) {
  const one = async (row: Parameters<typeof withImages>[1][number]) => (await withImages(ctx.db, [row]))[0]!;

  const customer = new Elysia({ prefix: '/exchange', tags: ['Exchange requests'] })
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
        response: { 201: t.Object({ id: t.String({ description: 'the new request’s id' }) }), 400: ErrorBody, 409: ErrorBody, 429: ErrorBody, ...signedIn },
        detail: { summary: 'Submit a trade-in request', description: 'Submit a used product for exchange, with 1 to 5 uploaded images; an item the shop does not take is refused (409 with the reason). A customer on the block list (email or @domain) is refused with a neutral 403 that never gives the reason. A photo already used in another customer\'s request flags both requests for admins.' },
      },
    )
    .get(
      '',
      async ({ query, user, set }) => listAnswer(set, await listCustomerRequests(ctx.db, user.id, pagedByDefault(query))),
      {
        auth: true,
        query: CustomerListQuery,
        response: { 200: t.Array(ExchangeRequest), 400: ErrorBody, ...signedIn },
        detail: { summary: 'Your trade-in requests', description: 'The signed-in customer\'s requests, newest first (page, pageSize, q, status optional; total in X-Total-Count).' },
      },
    )
    .get(
      '/cancelled',
      async ({ query, user, set }) => listAnswer(set, await listCancelledRequests(ctx.db, user.id, pagedByDefault(query))),
      {
        auth: true,
        query: PagingQuery,
        response: { 200: t.Array(CancelledRequest), 400: ErrorBody, ...signedIn },
        detail: {
          summary: 'Your cancelled requests',
          description:
            'The requests the signed-in customer cancelled, last cancelled first (page, pageSize, q optional; total in X-Total-Count). A cancelled request is deleted and so appears in no other list or count; this keeps its product, brand, condition and dates, without images. A request an admin deleted is not listed.',
        },
      },
    )
    .get(
      '/:id',
      ({ params, user }) => customerRequestDetail(ctx, user, params.id),
      {
        auth: true,
        response: { 200: ExchangeRequestDetail, 404: ErrorBody, ...signedIn },
        detail: { summary: 'One of your requests with its timeline', description: 'The request, its timeline of events and what the valuation gave. Someone else\'s request is 404, as a missing one.' },
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
        detail: { summary: 'Cancel (delete) your request while it is pending', description: 'Withdraws a pending request and removes its images; once reviewed it is 409.' },
      },
    )
    .post('/:id/shipping', async ({ params, body, user }) => one(await submitShipping(ctx, user, params.id, body)), {
      auth: true,
      body: ShippingBody,
      response: { 200: ExchangeRequest, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, ...signedIn },
      detail: { summary: 'Add the shipping details of an approved request; its item is then shipped', description: 'Carrier, tracking number and shipping date for an approved request; its transit status becomes shipped.' },
    })
    .put('/:id/shipping', async ({ params, body, user }) => one(await correctShipping(ctx, user, params.id, body)), {
      auth: true,
      body: ShippingBody,
      response: { 200: ExchangeRequest, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, ...signedIn },
      detail: { summary: 'Correct the shipping details of your request until its item is received', description: 'Replaces the shipping details given before; once the warehouse has received the item it is 409.' },
    });

  const admin = new Elysia({ prefix: '/admin/exchange-requests', tags: ['Admin: exchange requests'] })
    .use(auth)
    .get(
      '',
      async ({ query, set }) => listAnswer(set, await listAdminRequests(ctx.db, pagedByDefault({ ...query, tab: query.tab as AdminTab | undefined }))),
      {
        admin: true,
        query: AdminListQuery,
        response: { 200: t.Array(AdminExchangeRequest), 400: ErrorBody, ...adminOnly },
        detail: { summary: 'The admin queue of requests', description: 'Every request, newest first (tab 0-3, status, waiting (offers: revised offers waiting for the customer; returns: declined offers to send back), q, flagged (true: only requests with a risk flag), page, pageSize optional; total in X-Total-Count).' },
      },
    )
    .get('/counts', ({ query }) => countAdminTabs(ctx.db, query), {
      admin: true,
      query: CountsQuery,
      response: { 200: RequestCounts, 400: ErrorBody, ...adminOnly },
      detail: { summary: 'Counts per queue tab', description: 'How many requests each of the tabs 0-3 holds, for the badges.' },
    })
    .get('/waiting-counts', () => countWaiting(ctx.db), {
      admin: true,
      response: { 200: WaitingCounts, ...adminOnly },
      detail: { summary: 'Counts of the waiting filters', description: "How many revised offers wait for the customer's answer (waiting=offers) and how many declined offers' items wait to be sent back (waiting=returns)." },
    })
    .get('/:id', async ({ params, user }) => {
      const detail = await adminRequestDetail(ctx, params.id);
      await recordAccess(ctx.db, { actorEmail: user.email, action: 'request_detail', subjectEmail: detail.customerEmail, requestId: detail.id });
      return detail;
    }, {
      admin: true,
      response: { 200: AdminExchangeRequestDetail, 404: ErrorBody, ...adminOnly },
      detail: {
        summary: 'One request, for an admin',
        description: "One request with its timeline, its customer, their store-credit balance and its risk flags (`duplicate_photo`: a photo also used in another customer's request, named by `requestId`). Each answer is recorded in the privacy access log (who, which request, when; `swappoints privacy log`).",
      },
    })
    .put('/:id/status', async ({ params, body, user }) => one(await changeStatus(ctx, actorOf(user, 'admin'), params.id, body)), {
      admin: true,
      body: StatusBody,
      response: change,
      detail: { summary: 'Approve, decline or complete a request', description: 'Approve (with a warehouse) or decline a pending request, or complete a credited one.' },
    })
    .put('/:id/transit', async ({ params, body, user }) => one(await markReceived(ctx, actorOf(user, 'admin'), params.id, body)), {
      admin: true,
      body: TransitBody,
      response: change,
      detail: { summary: 'Mark a shipped item as received', description: 'Records that the warehouse has the item (transit status received), so it can be credited. A change the request\'s state does not allow is 409.' },
    })
    .put('/:id/shipping', async ({ params, body, user }) => one(await enterShipping(ctx, actorOf(user, 'admin'), params.id, body)), {
      admin: true,
      body: ShippingBody,
      response: change,
      detail: {
        summary: 'Record shipping details for the customer',
        description:
          'For a parcel that arrived without tracking details: the customer\'s fields and checks (carrier, tracking number, shipping date not after today, notes), allowed while the request is approved and not yet received. The item is then shipped and can be received; the timeline says an admin entered them.',
      },
    })
    .delete(
      '/:id',
      async ({ params, user }) => {
        await deleteRequest(ctx, actorOf(user, 'admin'), params.id);
        return { success: true as const, id: params.id };
      },
      {
        admin: true,
        response: { 200: Deleted, 404: ErrorBody, ...adminOnly },
        detail: { summary: 'Delete a request', description: 'Delete a request in any state; its images leave storage, its credit history stays.' },
      },
    );

  const receive = new Elysia({ prefix: '/admin/receive', tags: ['Admin: exchange requests'] })
    .use(auth)
    .post('', ({ body, user }) => receiveByCode(ctx, actorOf(user, 'admin'), body), {
      admin: true,
      body: ReceiveBody,
      response: { 200: ReceivedRequest, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, ...adminOnly },
      detail: {
        summary: 'Receive a parcel by scanning its code',
        description:
          'The code is a tracking number (case and spaces ignored) or a packing slip\'s reference (SP- and ten hex digits). Marks that request received as "Mark as Received" does, and answers it with its photos. 404 "No request found for {code}"; 409 when it was already received (saying when, with receivedAt), when it is not approved or has no shipping details, or when the code matches more than one request. A repeated scan changes nothing.',
      },
    });

  return new Elysia().use(customer).use(admin).use(receive);
}
