import type { Db } from '#api/db/connect.ts';
import { notFound } from '#api/lib/errors.ts';
import { isUuid } from '#api/lib/request-meta.ts';

/** Approved requests whose customers ship (or shipped) to this warehouse: the ones a delete would leave on their snapshot. */
export async function openRequestsShippingTo(db: Db, id: string | undefined) {
  if (!isUuid(id)) throw notFound('Warehouse not found');
  const exists = await db.selectFrom('warehouses').select('id').where('id', '=', id).executeTakeFirst();
  if (!exists) throw notFound('Warehouse not found');
  const rows = await db
    .selectFrom('exchange_requests')
    .select(['id', 'product_name', 'customer_email', 'status'])
    .where('warehouse_id', '=', id)
    .where('status', '=', 'approved')
    .orderBy('created_at', 'asc')
    .limit(100)
    .execute();
  return rows.map((r) => ({ id: r.id, productName: r.product_name, customerEmail: r.customer_email, status: r.status as string }));
}
