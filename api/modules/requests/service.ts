import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { Db } from '#api/db/connect.ts';
import { CONDITIONS, REQUEST_STATUSES, type Condition, type ExchangeRequestRow, type RequestStatus, type WarehouseSnapshot } from '#api/db/types.ts';
import { badRequest, conflict, notFound } from '#api/lib/errors.ts';
import { isUuid } from '#api/lib/request-meta.ts';
import { attachImages } from '#api/modules/images/service.ts';
import { flagDuplicatePhotos } from '#api/modules/risk/photos.ts';
import { refuseIfBlocked } from '#api/modules/risk/service.ts';
import { quoteColumns } from '#api/modules/valuation/quote.ts';
import { quoteFor } from '#api/modules/valuation/queries.ts';
import { toWarehouseSnapshot } from '#api/modules/warehouses/service.ts';
import { emitRequestEvent } from './webhook.ts';
import { enforceRequestCaps } from './caps.ts';
import { recordEvent, type Actor } from './events.ts';
import { cleanText } from '#api/lib/text.ts';
import type { CreateExchangeBody, ShippingBody, StatusBody, TransitBody } from './model.ts';
import { notifyDecision, notifyNewRequest, notifyReceived } from './notify.ts';
import { ADMIN_NOT_FOUND, findRequest, ownRequestOr404, requestOr404 } from './queries.ts';
import {
  adminTextOverLimit,
  adminTextTooLong,
  CHANGED_MEANWHILE,
  CREDIT_BEFORE_COMPLETING,
  DECLINE_NEEDS_FEEDBACK,
  FILL_REQUIRED_FIELDS,
  INVALID_CONDITION,
  NEED_AN_IMAGE,
  REQUEST_TEXT_LIMITS,
  requestTextTooLong,
  SHIPPING_ALREADY_SUBMITTED,
  SHIPPING_NEEDS_APPROVAL,
  STEPS,
  WAREHOUSE_REQUIRED,
  statusChangeRefusal,
  type Step,
  type StatusChange,
} from './rules.ts';
import { stateCondition } from './state-sql.ts';
import { readShipping, recordShipping } from './shipping.ts';

/**
 * The exchange request state machine (spec §4, DESIGN "state changes"). Every change is one
 * conditional UPDATE (`… where status = …`) in a transaction with its timeline event and its mail,
 * so of two racing changes exactly one wins and the other gets a 409 with a clear error.
 */

export const WAREHOUSE_UNAVAILABLE = 'The selected warehouse does not exist or is not active. Please select an active warehouse.';
export { CREDIT_BEFORE_COMPLETING };
export const INVALID_STATUS = `Please choose a valid status: ${REQUEST_STATUSES.join(', ')}`;


const now = () => sql<Date>`now()`;

/** The step of each status change, whose state its update requires. */
const STEP_OF: Record<StatusChange, Step> = { approved: 'approve', declined: 'decline', completed: 'complete' };

export interface CreateRequestInput {
  productName?: string | null;
  brand?: string | null;
  description?: string | null;
  condition?: string | null;
  images?: { url: string; publicId: string }[] | null;
}

/** POST /api/exchange: a new pending request with the customer's uploaded images; admins are told by mail. */
export async function createRequest(ctx: AppContext, user: { id: string; email: string }, input: CreateExchangeBody | CreateRequestInput): Promise<ExchangeRequestRow> {
  const productName = cleanText(input.productName);
  const brand = cleanText(input.brand);
  const description = cleanText(input.description);
  const condition = cleanText(input.condition);
  if (!productName || !brand || !description || !condition) throw badRequest(FILL_REQUIRED_FIELDS);
  if (!CONDITIONS.includes(condition as Condition)) throw badRequest(INVALID_CONDITION);
  for (const [field, value] of [['productName', productName], ['brand', brand], ['description', description]] as const) {
    if (value.length > REQUEST_TEXT_LIMITS[field]) throw badRequest(requestTextTooLong(field));
  }
  const images = input.images ?? [];
  if (images.length === 0) throw badRequest(NEED_AN_IMAGE);
  await refuseIfBlocked(ctx, user.email);
  // the guide is asked again here: an item the form showed as refused is refused by the API too
  const quoted = await quoteFor(ctx.db, { brand, productName, condition }, ctx.settings.shopCurrency);
  if (!quoted.quote.eligible) throw conflict(quoted.quote.reason);

  const actor: Actor = { id: user.id, email: user.email, role: 'customer' };
  const row = await ctx.db.transaction().execute(async (trx) => {
    await enforceRequestCaps(trx, user.id, { maxOpen: ctx.settings.maxOpenRequestsPerCustomer, maxPerDay: ctx.settings.maxNewRequestsPerDay });
    const created = await trx
      .insertInto('exchange_requests')
      .values({
        user_id: user.id,
        customer_email: user.email,
        product_name: productName,
        brand,
        description,
        condition: condition as Condition,
        currency: ctx.settings.shopCurrency,
        ...quoteColumns(quoted),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await attachImages(trx, { userId: user.id, requestId: created.id, images });
    await flagDuplicatePhotos(trx, created.id);
    await recordEvent(trx, { requestId: created.id, type: 'created', actor, toStatus: 'pending' });
    await notifyNewRequest(trx, ctx, created);
    await emitRequestEvent(trx, 'request.created', created);
    return created;
  });
  ctx.mailer.kick();
  return row;
}

async function activeWarehouse(trx: Db, warehouseId: string): Promise<WarehouseSnapshot> {
  if (!isUuid(warehouseId)) throw badRequest(WAREHOUSE_UNAVAILABLE);
  // FOR SHARE: the warehouse cannot be deactivated or deleted while this approval commits.
  const w = await trx.selectFrom('warehouses').selectAll().where('id', '=', warehouseId).where('is_active', '=', true).forShare().executeTakeFirst();
  if (!w) throw badRequest(WAREHOUSE_UNAVAILABLE);
  return toWarehouseSnapshot(w);
}

/**
 * PUT /api/admin/exchange-requests/{id}/status: pending → approved (an active warehouse, whose
 * address is kept as the request's snapshot) or declined; approved → completed once credit is
 * assigned. The same status again changes nothing and returns the request.
 */
export async function changeStatus(ctx: AppContext, actor: Actor, id: string | undefined, input: StatusBody): Promise<ExchangeRequestRow> {
  let current = await requestOr404(ctx.db, id);
  const target = cleanText(input.status) as RequestStatus | null;
  if (!target || !REQUEST_STATUSES.includes(target)) throw badRequest(INVALID_STATUS);
  const feedback = cleanText(input.adminFeedback);
  if (adminTextOverLimit('adminFeedback', feedback)) throw badRequest(adminTextTooLong('adminFeedback'));
  const warehouseId = cleanText(input.warehouseId);

  // A lost race re-reads the request once: the winner's state decides between a no-op and a 409.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (current.status === target) return current;
    const refused = statusChangeRefusal(current.status, target);
    if (refused) throw conflict(refused);
    if (target === 'declined' && !feedback) throw badRequest(DECLINE_NEEDS_FEEDBACK);
    if (target === 'approved' && !warehouseId) throw badRequest(WAREHOUSE_REQUIRED);
    if (target === 'completed' && current.credited_at === null) throw conflict(CREDIT_BEFORE_COMPLETING);

    const from = current.status;
    const updated = await ctx.db.transaction().execute(async (trx) => {
      let query = trx
        .updateTable('exchange_requests')
        .set({ status: target, updated_at: now() })
        .where('id', '=', current.id)
        .where((eb) => stateCondition(eb, STEPS[STEP_OF[target as StatusChange]]));
      if (feedback) query = query.set({ admin_feedback: feedback });
      if (target === 'approved') {
        const snapshot = await activeWarehouse(trx, warehouseId!);
        query = query.set({ warehouse_id: snapshot.id, warehouse_snapshot: JSON.stringify(snapshot), decided_at: now() });
      } else if (target === 'declined') {
        query = query.set({ decided_at: now() });
      } else {
        query = query.set({ completed_at: now() });
      }
      const row = await query.returningAll().executeTakeFirst();
      if (!row) return undefined;
      await recordEvent(trx, { requestId: row.id, type: target as 'approved' | 'declined' | 'completed', actor, fromStatus: from, toStatus: target, note: feedback });
      await notifyDecision(trx, ctx, row);
      await emitRequestEvent(trx, `request.${target as 'approved' | 'declined' | 'completed'}`, row);
      return row;
    });
    if (updated) {
      ctx.mailer.kick();
      return updated;
    }
    current = await requestOr404(ctx.db, id);
  }
  throw conflict(CHANGED_MEANWHILE);
}

/** POST /api/exchange/{id}/shipping: the owner's carrier, tracking number and date; the item is then shipped. */
export async function submitShipping(ctx: AppContext, user: { id: string; email: string }, id: string | undefined, input: ShippingBody): Promise<ExchangeRequestRow> {
  const row = await ownRequestOr404(ctx.db, user.id, id);
  const { carrierName, trackingNumber, shippingDate, notes } = readShipping(ctx, input);

  const updated = await ctx.db.transaction().execute((trx) =>
    recordShipping(trx, row, { carrierName, trackingNumber, shippingDate, notes }, { id: user.id, email: user.email, role: 'customer' }),
  );
  if (updated) return updated;
  const latest = await ownRequestOr404(ctx.db, user.id, id);
  if (latest.status !== 'approved') throw conflict(SHIPPING_NEEDS_APPROVAL);
  throw conflict(SHIPPING_ALREADY_SUBMITTED);
}

/** PUT /api/admin/exchange-requests/{id}/transit: the item arrived; only after it was shipped, and once. */
export async function markReceived(ctx: AppContext, actor: Actor, id: string | undefined, input: TransitBody): Promise<ExchangeRequestRow> {
  const row = await requestOr404(ctx.db, id);
  if (cleanText(input.transitStatus) !== 'received') throw badRequest("transitStatus must be 'received'");
  const note = cleanText(input.adminNote);
  if (adminTextOverLimit('adminNote', note)) throw badRequest(adminTextTooLong('adminNote'));
  const updated = await ctx.db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable('exchange_requests')
      .set({ transit_status: 'received', received_at: now(), updated_at: now() })
      .where('id', '=', row.id)
      .where((eb) => stateCondition(eb, STEPS.receive))
      .returningAll()
      .executeTakeFirst();
    if (!changed) return undefined;
    await recordEvent(trx, { requestId: row.id, type: 'received', actor, fromStatus: row.transit_status, toStatus: 'received', note });
    await notifyReceived(trx, ctx, changed);
    await emitRequestEvent(trx, 'request.received', changed);
    return changed;
  });
  if (updated) {
    ctx.mailer.kick();
    return updated;
  }
  const latest = await findRequest(ctx.db, row.id);
  if (!latest) throw notFound(ADMIN_NOT_FOUND);
  if (latest.transit_status === 'received') throw conflict('This item has already been marked as received.');
  if (latest.status !== 'approved') throw conflict('Only an approved request can be marked as received.');
  throw conflict('The customer has not submitted shipping details yet, so the item cannot be marked as received.');
}
