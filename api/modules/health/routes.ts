import { Elysia } from 'elysia';
import type { AppContext } from '#api/context.ts';
import { HealthBody } from './model.ts';
import { checkHealth } from './service.ts';

/** `GET /api/health` for load balancers: 200 when the database and the object store answer, else 503. */
export function healthRoutes(ctx: AppContext) {
  return new Elysia({ tags: ['Health'] }).get(
    '/health',
    async ({ set, status }) => {
      set.headers['cache-control'] = 'no-store';
      const health = await checkHealth(ctx);
      return health.status === 'ok' ? health : status(503, health);
    },
    {
      response: { 200: HealthBody, 503: HealthBody },
      detail: { summary: 'Health of this instance', description: 'Whether this instance can serve: database and object store reachable (200), or not (503).' },
    },
  );
}
