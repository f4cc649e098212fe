import type { AppContext } from '#api/context.ts';
import { badRequest } from '#api/lib/errors.ts';
import type { Analytics, AnalyticsQuery } from './model.ts';
import { analyticsFor } from './queries.ts';
import { DEFAULT_PRESET, presetRange, rangeProblem, todayIn } from './rules.ts';

/** The figures for a range (the last 30 days by default; `from` alone runs to today), in the shop's time zone and currency. */
export async function getAnalytics(ctx: AppContext, query: AnalyticsQuery = {}): Promise<Analytics> {
  const timeZone = ctx.settings.shopTimeZone;
  const today = todayIn(timeZone);
  const range = query.from || query.to ? { from: query.from ?? presetRange(DEFAULT_PRESET, query.to!).from, to: query.to ?? today } : presetRange(DEFAULT_PRESET, today);
  const problem = rangeProblem(range);
  if (problem) throw badRequest(problem);
  return analyticsFor(ctx.db, range, { timeZone, currency: ctx.settings.shopCurrency });
}
