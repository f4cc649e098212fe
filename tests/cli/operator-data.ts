import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import { assignCredit } from '#api/modules/credit/ledger.ts';
import { saveUpload } from '#api/modules/images/service.ts';
import { actorOf } from '#api/modules/requests/events.ts';
import { changeStatus, createRequest, markReceived, submitShipping } from '#api/modules/requests/service.ts';
import { createWarehouse } from '#api/modules/warehouses/service.ts';
import { testSession } from '#tests/helpers/cli.ts';
import { png } from '#tests/helpers/images.ts';

/**
 * Data for the operator CLI tests, made through the same services the API uses, on the database
 * the CLI commands then read. The embedded database is opened the way the CLI opens it (taking
 * its lock), and shared with this process's in-process commands (tests/helpers/cli.ts): two
 * processes never hold one PGlite directory at once.
 */

/** A context on the target's database in this process for `fn` (the embedded one as in-process commands have it). */
export async function withContext<T>(env: Record<string, string | undefined>, fn: (ctx: AppContext) => Promise<T>): Promise<T> {
  const session = testSession({ ...process.env, LOG_LEVEL: 'error', ...env });
  try {
    return await fn(await session.context());
  } finally {
    await session.close();
  }
}

let counter = 0;
export const uniqueEmail = (prefix: string) => `${prefix}.${process.pid}.${++counter}@example.com`;

/** A user row, as a first sign-in leaves it. */
export async function user(ctx: AppContext, email: string, options: { admin?: boolean } = {}) {
  return ctx.db
    .insertInto('users')
    .values({ email, name: null, is_admin: options.admin ?? false })
    .onConflict((oc) => oc.column('email').doUpdateSet({ is_admin: options.admin ?? false }))
    .returning(['id', 'email'])
    .executeTakeFirstOrThrow();
}

export type Stage = 'pending' | 'declined' | 'approved' | 'shipped' | 'received' | 'credited' | 'completed';
const ORDER: Stage[] = ['pending', 'approved', 'shipped', 'received', 'credited', 'completed'];
const reached = (stage: Stage, step: Stage) => stage !== 'declined' && ORDER.indexOf(stage) >= ORDER.indexOf(step);

export interface MadeRequest {
  id: string;
  email: string;
  stage: Stage;
  productName: string;
}

/** One request of a new customer, taken to `stage` through the real services (credit pushes to the configured shop). */
export async function requestAt(
  ctx: AppContext,
  stage: Stage,
  options: { productName?: string; brand?: string; credit?: number; warehouseId?: string; email?: string } = {},
): Promise<MadeRequest> {
  const admin = actorOf(await user(ctx, 'ops.admin@example.com', { admin: true }), 'admin');
  const customer = await user(ctx, options.email ?? uniqueEmail('customer'));
  const image = await saveUpload(ctx, customer.id, png(), 'image/png');
  const productName = options.productName ?? 'HP 305 Black Ink Cartridge';
  const request = await createRequest(ctx, customer, {
    productName,
    brand: options.brand ?? 'HP',
    description: 'Unused spare from a bulk order, box opened.',
    condition: 'like_new',
    images: [image],
  });
  const done = { id: request.id, email: customer.email, stage, productName };
  if (stage === 'pending') return done;
  if (stage === 'declined') {
    await changeStatus(ctx, admin, request.id, { status: 'declined', adminFeedback: 'Not a printer part' });
    return done;
  }
  const warehouseId = options.warehouseId ?? (await anyWarehouse(ctx));
  await changeStatus(ctx, admin, request.id, { status: 'approved', warehouseId, adminFeedback: 'Looks good' });
  if (reached(stage, 'shipped')) {
    await submitShipping(ctx, customer, request.id, { carrierName: 'Blue Dart', trackingNumber: 'BD123456789IN', shippingDate: '2026-11-20', notes: null });
  }
  if (reached(stage, 'received')) await markReceived(ctx, admin, request.id, { transitStatus: 'received', adminNote: 'Arrived' });
  if (reached(stage, 'credited')) await assignCredit(ctx, admin, request.id, { creditAmount: options.credit ?? 500, additionalFeedback: null });
  if (reached(stage, 'completed')) await changeStatus(ctx, admin, request.id, { status: 'completed' });
  return done;
}

async function anyWarehouse(ctx: AppContext): Promise<string> {
  const existing = await ctx.db.selectFrom('warehouses').select('id').where('is_active', '=', true).executeTakeFirst();
  if (existing) return existing.id;
  const w = await createWarehouse(ctx.db, {
    name: `Test Hub ${process.pid}`,
    addressLine1: 'Plot 18, Peenya Industrial Area',
    city: 'Bengaluru',
    state: 'Karnataka',
    postalCode: '560058',
    country: 'India',
  });
  return w.id;
}

/**
 * `count` ledger rows at once in SQL (with the users and requests they reference), for exports too
 * large to build request by request. Every tenth push failed; amounts and notes vary, and some notes
 * carry commas, quotes, line breaks and formula-like text for the CSV to quote and defuse.
 */
const SNAPSHOT = JSON.stringify({
  id: '00000000-0000-4000-8000-000000000000', name: 'Bulk Hub', addressLine1: 'Plot 1', addressLine2: null,
  city: 'Bengaluru', state: 'Karnataka', postalCode: '560058', country: 'India', contactPerson: null, contactPhone: null,
});

export async function bulkLedger(ctx: AppContext, count: number, options: { users?: number } = {}): Promise<void> {
  const users = Math.max(1, Math.min(options.users ?? 50, count));
  const tag = `${process.pid}${++counter}`;
  await sql`
    insert into users (email, name)
    select 'bulk.' || ${tag}::text || '.' || g || '@example.com', 'Bulk ' || g from generate_series(1, ${users}::int) g`.execute(ctx.db);
  await sql`
    with u as (select id, email, row_number() over (order by email) as n from users where email like ${`bulk.${tag}.%`}),
    r as (
      insert into exchange_requests (user_id, customer_email, product_name, brand, description, condition, status, transit_status,
        shipping_carrier, shipping_tracking_number, shipping_date, warehouse_snapshot, credit_amount)
      select u.id, u.email, 'Bulk part ' || g, 'Canon', 'bulk', 'good', 'completed', 'received',
        'Blue Dart', 'BD' || g, date '2026-11-20', ${SNAPSHOT}::jsonb, 100 + (g % 900) + 0.5
      from generate_series(1, ${count}::int) g join u on u.n = 1 + (g % ${users}::int)
      returning id, user_id, credit_amount, product_name
    )
    insert into credit_ledger (user_id, exchange_request_id, type, amount, currency, push_status, push_attempts, next_push_at, external_transaction_id, pushed_at, last_push_error, note)
    select r.user_id, r.id, 'exchange_credit', r.credit_amount, 'INR',
      case when right(r.product_name, 1) = '7' then 'failed' else 'success' end, 1, null,
      case when right(r.product_name, 1) = '7' then null else 'tx-' || r.id end,
      case when right(r.product_name, 1) = '7' then null else now() end,
      case when right(r.product_name, 1) = '7' then 'The shop refused the credit.' end,
      case right(r.product_name, 1)
        when '1' then 'Valued, with "care", after inspection'
        when '2' then '=HYPERLINK("http://evil.example","x")'
        when '3' then E'two\nlines'
        else null end
    from r`.execute(ctx.db);
}

/** Every exchange credit as the export should give it: id order, with the customer's email. */
export async function ledgerRows(ctx: AppContext) {
  return ctx.db
    .selectFrom('credit_ledger as l')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .select(['l.id', 'l.exchange_request_id', 'l.amount', 'l.currency', 'l.push_status', 'l.created_at', 'l.note', 'u.email'])
    .orderBy('l.id')
    .execute();
}
