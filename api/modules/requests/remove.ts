import type { AppContext } from '#api/context.ts';
import type { Db } from '#api/db/connect.ts';
import type { ExchangeRequestRow } from '#api/db/types.ts';
import { conflict, notFound } from '#api/lib/errors.ts';
import { removeStoredImages } from '#api/modules/images/service.ts';
import { emitRequestEvent } from './webhook.ts';
import { recordEvent, type Actor } from './events.ts';
import { ADMIN_NOT_FOUND, CUSTOMER_NOT_FOUND, findRequest } from './queries.ts';
import { ONLY_PENDING_CANCEL, STEPS } from './rules.ts';
import { stateCondition } from './state-sql.ts';

export { ONLY_PENDING_CANCEL };

/**
 * Deleting a request: its row and image rows (by cascade) go in one transaction with the timeline
 * event; the image files leave storage after the commit (a storage failure is logged, not thrown). Events and ledger rows have no foreign key to the
 * request, so its history and its money stay.
 */
async function removeRequest(
  ctx: AppContext,
  id: string,
  where: (trx: Db) => Promise<ExchangeRequestRow | undefined>,
  event: (row: ExchangeRequestRow) => Parameters<typeof recordEvent>[1],
): Promise<ExchangeRequestRow | undefined> {
  const removed = await ctx.db.transaction().execute(async (trx) => {
    const images = await trx.selectFrom('request_images').select(['public_id', 'url']).where('request_id', '=', id).orderBy('position').execute();
    const row = await where(trx);
    if (!row) return undefined;
    const recorded = event(row);
    await recordEvent(trx, recorded);
    await emitRequestEvent(trx, `request.${recorded.type as 'cancelled' | 'deleted'}`, row, images.map((i) => ({ url: i.url, publicId: i.public_id })));
    return { row, publicIds: images.map((i) => i.public_id) };
  });
  if (!removed) return undefined;
  await removeStoredImages(ctx, removed.publicIds);
  return removed.row;
}

/** What the customer's "Cancelled" filter lists of a request they cancelled (the row itself is deleted). */
async function keepCancelled(trx: Db, row: ExchangeRequestRow): Promise<void> {
  await trx
    .insertInto('cancelled_requests')
    .values({ request_id: row.id, user_id: row.user_id, product_name: row.product_name, brand: row.brand, condition: row.condition, created_at: row.created_at })
    .execute();
}

/** DELETE /api/exchange/{id}: the owner withdraws a request while it is still pending; a record of it stays for the "Cancelled" filter. */
export async function cancelRequest(ctx: AppContext, user: { id: string; email: string }, id: string | undefined): Promise<void> {
  const row = await findRequest(ctx.db, id);
  if (!row || row.user_id !== user.id) throw notFound(CUSTOMER_NOT_FOUND);
  const removed = await removeRequest(
    ctx,
    row.id,
    async (trx) => {
      const deleted = await trx
        .deleteFrom('exchange_requests')
        .where('id', '=', row.id)
        .where('user_id', '=', user.id)
        .where((eb) => stateCondition(eb, STEPS.cancel))
        .returningAll()
        .executeTakeFirst();
      if (deleted) await keepCancelled(trx, deleted);
      return deleted;
    },
    (r) => ({ requestId: r.id, type: 'cancelled', actor: { id: user.id, email: user.email, role: 'customer' }, fromStatus: r.status }),
  );
  if (removed) return;
  const latest = await findRequest(ctx.db, row.id);
  if (!latest) throw notFound(CUSTOMER_NOT_FOUND);
  throw conflict(ONLY_PENDING_CANCEL);
}

/** DELETE /api/admin/exchange-requests/{id}: an admin deletes a request in any state. */
export async function deleteRequest(ctx: AppContext, actor: Actor, id: string | undefined): Promise<void> {
  const row = await findRequest(ctx.db, id);
  if (!row) throw notFound(ADMIN_NOT_FOUND);
  const removed = await removeRequest(
    ctx,
    row.id,
    (trx) => trx.deleteFrom('exchange_requests').where('id', '=', row.id).returningAll().executeTakeFirst(),
    (r) => ({ requestId: r.id, type: 'deleted', actor, fromStatus: r.status }),
  );
  if (!removed) throw notFound(ADMIN_NOT_FOUND);
}
