import { Elysia, t } from 'elysia';
import type { AppContext } from '#api/context.ts';
import { ErrorBody } from '#api/modules/auth/model.ts';
import type { AuthPlugin } from '#api/modules/auth/plugin.ts';
import { listCreditHistory, retryCreditPush } from '#api/modules/credit/history.ts';
import { assignCredit } from '#api/modules/credit/ledger.ts';
import { actorOf } from '#api/modules/requests/events.ts';
import {
  AdminExchangeRequest,
  AdminExchangeRequestDetail,
  AdminListQuery,
  CountsQuery,
  CreditBody,
  CreditedExchangeRequest,
  CreditHistoryQuery,
  CreditRecord,
  Deleted,
  ExchangeRequest,
  RequestCounts,
  StatusBody,
  TransitBody,
} from '#api/modules/requests/model.ts';
import { countAdminTabs, listAdminRequests, withImages, type AdminTab } from '#api/modules/requests/queries.ts';
import { deleteRequest } from '#api/modules/requests/remove.ts';
import { changeStatus, markReceived } from '#api/modules/requests/service.ts';
import { adminRequestDetail } from './service.ts';
import { pagedByDefault } from '#api/lib/paging.ts';

const adminOnly = { 401: ErrorBody, 403: ErrorBody };
const change = { 200: ExchangeRequest, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, ...adminOnly };

/** The admin dashboard's calls: every request, its decisions, the credit and the credit history. */
export function adminRoutes(ctx: AppContext, auth: AuthPlugin) {
  const one = async (row: Parameters<typeof withImages>[1][number]) => (await withImages(ctx.db, [row]))[0]!;

  const requests = new Elysia({ prefix: '/admin/exchange-requests', tags: ['Admin: exchange requests'] })
    .use(auth)
    .get(
      '',
      async ({ query, set }) => {
        const { items, total } = await listAdminRequests(ctx.db, pagedByDefault({ ...query, tab: query.tab as AdminTab | undefined }));
        set.headers['x-total-count'] = String(total);
        return items;
      },
      {
        admin: true,
        query: AdminListQuery,
        response: { 200: t.Array(AdminExchangeRequest), 400: ErrorBody, ...adminOnly },
        detail: { summary: 'Every request, newest first (tab 0-3, status, q, page, pageSize optional; total in X-Total-Count)' },
      },
    )
    .get('/counts', ({ query }) => countAdminTabs(ctx.db, query), {
      admin: true,
      query: CountsQuery,
      response: { 200: RequestCounts, 400: ErrorBody, ...adminOnly },
      detail: { summary: 'How many requests each of the tabs 0-3 holds, for the badges' },
    })
    .get('/:id', ({ params }) => adminRequestDetail(ctx, params.id), {
      admin: true,
      response: { 200: AdminExchangeRequestDetail, 404: ErrorBody, ...adminOnly },
      detail: { summary: 'One request with its timeline, its customer and their store-credit balance' },
    })
    .put('/:id/status', async ({ params, body, user }) => one(await changeStatus(ctx, actorOf(user, 'admin'), params.id, body)), {
      admin: true,
      body: StatusBody,
      response: change,
      detail: { summary: 'Approve (with a warehouse) or decline a pending request, or complete a credited one' },
    })
    .put('/:id/transit', async ({ params, body, user }) => one(await markReceived(ctx, actorOf(user, 'admin'), params.id, body)), {
      admin: true,
      body: TransitBody,
      response: change,
      detail: { summary: 'Mark a shipped item as received' },
    })
    .put(
      '/:id/credit',
      async ({ params, body, user }) => {
        const { request, ledger } = await assignCredit(ctx, actorOf(user, 'admin'), params.id, body);
        return { ...(await one(request)), loyaltyPointsSuccess: ledger.push_status === 'success' };
      },
      {
        admin: true,
        body: CreditBody,
        response: { ...change, 200: CreditedExchangeRequest },
        detail: { summary: 'Assign store credit to a received item (once); it is pushed to the shop at once' },
      },
    )
    .delete(
      '/:id',
      async ({ params, user }) => {
        await deleteRequest(ctx, actorOf(user, 'admin'), params.id);
        return { success: true as const, id: params.id };
      },
      {
        admin: true,
        response: { 200: Deleted, 404: ErrorBody, ...adminOnly },
        detail: { summary: 'Delete a request in any state; its images leave storage, its credit history stays' },
      },
    );

  const history = new Elysia({ prefix: '/admin/credit-history', tags: ['Admin: credit history'] })
    .use(auth)
    .get(
      '',
      async ({ query, set }) => {
        const { items, total } = await listCreditHistory(ctx.db, pagedByDefault(query));
        set.headers['x-total-count'] = String(total);
        return items;
      },
      {
        admin: true,
        query: CreditHistoryQuery,
        response: { 200: t.Array(CreditRecord), 400: ErrorBody, ...adminOnly },
        detail: { summary: 'Every exchange credit, newest first (q: part of a user ID or exchange ID; status; page, pageSize)' },
      },
    )
    .post('/:id/retry', ({ params }) => retryCreditPush(ctx, params.id), {
      admin: true,
      response: { 200: CreditRecord, 404: ErrorBody, 409: ErrorBody, ...adminOnly },
      detail: { summary: 'Push a failed credit to the shop again, now' },
    });

  return new Elysia().use(requests).use(history);
}
