import { t, type UnwrapSchema } from 'elysia';
import { INVALID_DATE } from './rules.ts';

const date = t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', error: INVALID_DATE });

export const AnalyticsQuery = t.Object({ from: t.Optional(date), to: t.Optional(date) });
export type AnalyticsQuery = UnwrapSchema<typeof AnalyticsQuery>;

const Ranked = t.Object({ name: t.String(), credit: t.Number(), requests: t.Number() });

export const Analytics = t.Object({
  from: t.String(),
  to: t.String(),
  timeZone: t.String(),
  currency: t.String(),
  bucket: t.Union([t.Literal('day'), t.Literal('week')]),
  credit: t.Object({
    total: t.Number(),
    bonus: t.Number(),
    credits: t.Number(),
    failedPushes: t.Number(),
    series: t.Array(t.Object({ start: t.String(), amount: t.Number(), bonus: t.Number(), credits: t.Number() })),
  }),
  requests: t.Object({
    received: t.Number(),
    approved: t.Number(),
    declined: t.Number(),
    cancelled: t.Number(),
    deleted: t.Number(),
    open: t.Number(),
    /** approved ÷ (approved + declined); null when none was decided */
    approvalRate: t.Union([t.Number(), t.Null()]),
    series: t.Array(t.Object({ start: t.String(), received: t.Number() })),
  }),
  timeToCredit: t.Object({
    credited: t.Number(),
    medianHours: t.Union([t.Number(), t.Null()]),
    p90Hours: t.Union([t.Number(), t.Null()]),
  }),
  topBrands: t.Array(Ranked),
  topProducts: t.Array(Ranked),
});
export type Analytics = UnwrapSchema<typeof Analytics>;
