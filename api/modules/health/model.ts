import { t } from 'elysia';

const Reachable = t.Union([t.Literal('ok'), t.Literal('unreachable')]);

export const HealthBody = t.Object({
  status: t.Union([t.Literal('ok'), t.Literal('unavailable')]),
  database: Reachable,
  objectStore: Reachable,
  imageStore: t.Union([t.Literal('local'), t.Literal('s3')]),
});
