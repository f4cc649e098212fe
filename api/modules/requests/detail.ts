import type { AppContext } from '#api/context.ts';
import type { CustomerRef } from '#api/integrations/shop/types.ts';
import type { CurrentUser } from '#api/modules/auth/sessions.ts';
import { customerRef, sessionCustomerRef } from '#api/modules/users/queries.ts';
import { eventsOf } from './events.ts';
import type { AdminExchangeRequestDetail, ExchangeRequestDetail } from './model.ts';
import { ownRequestOr404, requestOr404, withImages } from './queries.ts';
import { flagsOf } from '#api/modules/risk/queries.ts';
import { valuationDetailOf } from '#api/modules/valuation/quote.ts';
import { creditGuideFor } from '#api/modules/valuation/queries.ts';

/** The customer's store-credit balance at the shop, or null when the shop cannot say: a request detail never fails for it. */
async function balanceOrNull(ctx: AppContext, customer: CustomerRef | string): Promise<number | null> {
  try {
    return (await ctx.shop.getBalance(typeof customer === 'string' ? await customerRef(ctx.db, customer) : customer)).amount;
  } catch (error) {
    const userId = typeof customer === 'string' ? customer : customer.userId;
    ctx.log.warn('store credit balance unavailable for a request detail', { userId, error });
    return null;
  }
}

/** GET /api/exchange/{id}: the customer's own request, its timeline, valuation, balance and credit push. */
export async function customerRequestDetail(ctx: AppContext, user: CurrentUser, id: string | undefined): Promise<ExchangeRequestDetail> {
  const row = await ownRequestOr404(ctx.db, user.id, id);
  const [[request], events, valuation, balance] = await Promise.all([
    withImages(ctx.db, [row]),
    eventsOf(ctx.db, row.id, 'customer'),
    valuationDetailOf(ctx.db, row.id),
    balanceOrNull(ctx, sessionCustomerRef(user)),
  ]);
  return { ...request!, ...valuation, events, totalShopifyCredit: balance, totalLoyaltyPoints: balance };
}

/** GET /api/admin/exchange-requests/{id}: the request, its timeline, and who the customer is. */
export async function adminRequestDetail(ctx: AppContext, id: string | undefined): Promise<AdminExchangeRequestDetail> {
  const row = await requestOr404(ctx.db, id);
  const [[request], events, customer, balance, valuation, creditGuide, riskFlags] = await Promise.all([
    withImages(ctx.db, [row]),
    eventsOf(ctx.db, row.id, 'admin'),
    ctx.db
      .selectFrom('users')
      .leftJoin('shop_customers', 'shop_customers.email', 'users.email')
      .select(['users.email', 'users.name', 'shop_customers.first_name', 'shop_customers.last_name'])
      .where('users.id', '=', row.user_id)
      .executeTakeFirst(),
    balanceOrNull(ctx, row.user_id),
    valuationDetailOf(ctx.db, row.id),
    creditGuideFor(ctx.db, row),
    flagsOf(ctx.db, row.id),
  ]);
  const shopName = [customer?.first_name, customer?.last_name].filter(Boolean).join(' ');
  return {
    ...request!,
    userEmail: row.customer_email,
    events,
    customerName: customer?.name || shopName || 'Unknown',
    customerEmail: customer?.email ?? row.customer_email,
    totalLoyaltyPoints: balance,
    totalShopifyCredit: balance,
    creditBreakdown: valuation.creditBreakdown,
    inspectionImages: valuation.inspectionImages,
    creditGuide,
    riskFlags,
  };
}
