import { Elysia, t } from 'elysia';
import type { AppContext } from '#api/context.ts';
import { ErrorBody } from '#api/modules/auth/model.ts';
import type { AuthPlugin } from '#api/modules/auth/plugin.ts';
import { getCustomerCredit } from './service.ts';

export const CreditResponse = t.Object({ creditAmount: t.Number(), currency: t.String() });

export function creditRoutes(ctx: AppContext, auth: AuthPlugin) {
  return new Elysia({ tags: ['Credit'] }).use(auth).get('/shopify/credit', ({ user }) => getCustomerCredit(ctx, user), {
    auth: true,
    response: { 200: CreditResponse, 401: ErrorBody, 404: ErrorBody, 502: ErrorBody, 504: ErrorBody },
    detail: { summary: "The signed-in customer's available store credit" },
  });
}
