import { join } from 'node:path';
import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import { importGuide, readGuideFile } from '#api/modules/valuation/import.ts';
import { setMinimum } from '#api/modules/valuation/service.ts';

export const DEMO_CAMPAIGN = 'Winter trade-in bonus';

/**
 * The demo shop's valuation guide: about 30 real printer parts, a rule (no generic parts), a
 * minimum of 100, and a campaign running from a week ago for two months. Running it twice changes nothing.
 */
export async function seedDemoValuation(ctx: AppContext, dataDir: string): Promise<number> {
  const report = await importGuide(ctx.db, await readGuideFile(join(dataDir, 'valuation-guide.csv')));
  await ctx.db
    .insertInto('valuation_rules')
    .values({ brand: 'Generic', model: null, reason: 'We take only original-brand parts, not generic or compatible ones.' })
    .onConflict((oc) => oc.expression(sql`lower(brand), lower(coalesce(model, ''))`).doNothing())
    .execute();
  await setMinimum(ctx.db, 100);
  const running = await ctx.db.selectFrom('bonus_campaigns').select('id').where('name', '=', DEMO_CAMPAIGN).executeTakeFirst();
  if (!running) {
    await ctx.db
      .insertInto('bonus_campaigns')
      .values({ name: DEMO_CAMPAIGN, kind: 'percent', value: 10, brand: null, starts_at: sql`now() - interval '7 days'`, ends_at: sql`now() + interval '60 days'` })
      .execute();
  }
  return report.created.length;
}
