import { Elysia } from 'elysia';
import type { AppContext } from '#api/context.ts';
import { ErrorBody } from '#api/lib/schema.ts';
import type { AuthPlugin } from '#api/modules/auth/plugin.ts';
import { Analytics, AnalyticsQuery } from './model.ts';
import { getAnalytics } from './service.ts';

export function analyticsRoutes(ctx: AppContext, auth: AuthPlugin) {
  return new Elysia({ tags: ['Analytics'] }).use(auth).get('/admin/analytics', ({ query }) => getAnalytics(ctx, query), {
    admin: true,
    query: AnalyticsQuery,
    response: { 200: Analytics, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
    detail: { summary: 'Figures for a period', description: 'Credit issued, requests and outcomes, approval rate, time to credit, failed pushes and top brands/products for from..to (shop time zone, to included; last 30 days by default).' },
  });
}
