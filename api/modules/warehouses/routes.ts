import { Elysia, t } from 'elysia';
import type { AppContext } from '#api/context.ts';
import { listAnswer, pagedByDefault } from '#api/lib/paging.ts';
import { Deleted, ErrorBody, PagingQuery } from '#api/lib/schema.ts';
import type { AuthPlugin } from '#api/modules/auth/plugin.ts';
import { OpenRequest, Warehouse, WarehouseBody } from './model.ts';
import { openRequestsShippingTo } from './queries.ts';
import { createWarehouse, deleteWarehouse, listWarehouses, updateWarehouse } from './service.ts';


const refused = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody };

/** The warehouse manager (admin tab 5). */
export function warehouseRoutes(ctx: AppContext, auth: AuthPlugin) {
  return new Elysia({ prefix: '/admin/warehouses', tags: ['Warehouses'] })
    .use(auth)
    .get(
      '',
      async ({ query, set }) => listAnswer(set, await listWarehouses(ctx.db, pagedByDefault(query))),
      {
        admin: true,
        query: PagingQuery,
        response: { 200: t.Array(Warehouse), ...refused },
        detail: { summary: 'Warehouses', description: 'Every warehouse, by name (page, pageSize and q optional; total in X-Total-Count).' },
      },
    )
    .post('', async ({ body, status }) => status(201, await createWarehouse(ctx.db, body)), {
      admin: true,
      body: WarehouseBody,
      response: { 201: Warehouse, ...refused, 409: ErrorBody },
      detail: { summary: 'Add a warehouse', description: 'Add a warehouse (isActive defaults to true).' },
    })
    .put('/:id', async ({ params, body }) => updateWarehouse(ctx.db, params.id, body), {
      admin: true,
      body: WarehouseBody,
      response: { 200: Warehouse, ...refused, 404: ErrorBody, 409: ErrorBody },
      detail: { summary: 'Replace a warehouse', description: 'Replace a warehouse; requests keep the address they were approved with.' },
    })
    .delete(
      '/:id',
      async ({ params }) => {
        await deleteWarehouse(ctx.db, params.id);
        return { success: true as const, id: params.id };
      },
      {
        admin: true,
          response: { 200: Deleted, ...refused, 404: ErrorBody },
        detail: { summary: 'Delete a warehouse', description: 'Delete a warehouse; requests approved with it keep its address.' },
      },
    )
    .get('/:id/open-requests', async ({ params }) => openRequestsShippingTo(ctx.db, params.id), {
      admin: true,
      response: { 200: t.Array(OpenRequest), ...refused, 404: ErrorBody },
      detail: { summary: 'Open requests shipping to a warehouse', description: 'Requests still on their way to this warehouse (approved, not completed): what deleting it would leave on a snapshot.' },
    });
}
