import type { AppContext } from '#api/context.ts';
import { ShopError } from '#api/integrations/shop/types.ts';
import { AppError } from '#api/lib/errors.ts';
import type { CurrentUser } from '#api/modules/auth/sessions.ts';
import { sessionCustomerRef } from '#api/modules/users/queries.ts';

/** The spec's credit error texts (§8), by the shop failure behind them. */
const CREDIT_ERRORS = {
  not_found: { status: 404, message: 'User not found in Shopify' },
  connection: { status: 502, message: 'Error connecting to Shopify' },
  no_response: { status: 504, message: 'No response from server' },
} as const;

/** GET /api/shopify/credit: the balance the shop holds for this customer. */
export async function getCustomerCredit(ctx: AppContext, user: CurrentUser) {
  try {
    const balance = await ctx.shop.getBalance(sessionCustomerRef(user));
    return { creditAmount: balance.amount, currency: balance.currency || ctx.settings.shopCurrency };
  } catch (error) {
    if (!(error instanceof ShopError)) throw error;
    const mapped = CREDIT_ERRORS[error.kind];
    ctx.log.warn('store credit lookup failed', { user: user.id, kind: error.kind, error: error.message });
    throw new AppError(mapped.status, error.kind === 'connection' && error.message ? error.message : mapped.message, {
      creditAmount: 0,
      currency: ctx.settings.shopCurrency,
    });
  }
}
