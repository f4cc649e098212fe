import { Elysia, t } from 'elysia';
import type { AppContext } from '#api/context.ts';
import { ErrorBody } from '#api/lib/schema.ts';
import type { AuthPlugin } from '#api/modules/auth/plugin.ts';
import { Deleted } from '#api/lib/schema.ts';
import { listAnswer } from '#api/lib/paging.ts';
import { Campaign, CampaignBody, EntriesQuery, EntryBody, GuideEntry, Minimum, MinimumBody, Multiplier, MultipliersBody, Quote, QuoteQuery, Rule, RuleBody } from './model.ts';
import { getMinimum, listCampaigns, listEntries, listMultipliers, listRules, quoteFor } from './queries.ts';
import { addCampaign, addRule, createEntry, deleteEntry, deleteRule, endCampaign, setMinimum, setMultipliers, updateEntry } from './service.ts';

const signedIn = { 401: ErrorBody, 403: ErrorBody };
const refused = { 400: ErrorBody, ...signedIn };

/** The customer's instant quote, and the admin's valuation guide: entries, multipliers, rules, the minimum and campaigns. */
export function valuationRoutes(ctx: AppContext, auth: AuthPlugin) {
  const currency = ctx.settings.shopCurrency;

  const customer = new Elysia({ prefix: '/valuation', tags: ['Valuation'] })
    .use(auth)
    .get('/quote', async ({ query }) => (await quoteFor(ctx.db, query, currency)).quote, {
      auth: true,
      query: QuoteQuery,
      response: { 200: Quote, ...refused, 422: ErrorBody },
      detail: {
        summary: 'Quote for an item', description: 'What the guide would give for an item: an estimate (base × the condition’s multiplier) and the campaign bonus, or why the shop does not take it.',
      },
    });

  const admin = new Elysia({ prefix: '/admin/valuation', tags: ['Admin: valuation'] })
    .use(auth)
    .get(
      '/entries',
      async ({ query, set }) => listAnswer(set, await listEntries(ctx.db, query)),
      {
        admin: true,
        query: EntriesQuery,
        response: { 200: t.Array(GuideEntry), ...refused },
        detail: { summary: 'The valuation guide', description: 'The guide by brand and model (q searches brand, model and name; page, pageSize ≤ 100, 50 by default; total in X-Total-Count).' },
      },
    )
    .post('/entries', async ({ body, status }) => status(201, await createEntry(ctx.db, body)), {
      admin: true,
      body: EntryBody,
      response: { 201: GuideEntry, ...refused, 409: ErrorBody },
      detail: { summary: 'Add a guide entry', description: 'Add a guide entry (brand + model are unique, whatever their case).' },
    })
    .put('/entries/:id', ({ params, body }) => updateEntry(ctx.db, params.id, body), {
      admin: true,
      body: EntryBody,
      response: { 200: GuideEntry, ...refused, 404: ErrorBody, 409: ErrorBody },
      detail: { summary: 'Replace a guide entry', description: 'Replaces every field of a guide entry; quotes already stored on requests keep their amounts.' },
    })
    .delete(
      '/entries/:id',
      async ({ params }) => {
        await deleteEntry(ctx.db, params.id);
        return { success: true as const, id: params.id };
      },
      { admin: true, response: { 200: Deleted, ...refused, 404: ErrorBody }, detail: { summary: 'Delete a guide entry', description: 'Delete a guide entry; stored quotes keep their amounts.' } },
    )
    .get('/multipliers', () => listMultipliers(ctx.db), {
      admin: true,
      response: { 200: t.Array(Multiplier), ...signedIn },
      detail: { summary: 'Condition multipliers', description: 'The six condition multipliers, in percent of a new unit.' },
    })
    .put('/multipliers', ({ body }) => setMultipliers(ctx.db, body), {
      admin: true,
      body: MultipliersBody,
      response: { 200: t.Array(Multiplier), ...refused },
      detail: { summary: 'Change condition multipliers', description: 'Change some condition multipliers ({ "good": 60 }); the others stay.' },
    })
    .get('/rules', () => listRules(ctx.db), {
      admin: true,
      response: { 200: t.Array(Rule), ...signedIn },
      detail: { summary: 'Refusal rules', description: 'The brands and models the shop does not take, each with the reason customers see.' },
    })
    .post('/rules', async ({ body, status }) => status(201, await addRule(ctx.db, body)), {
      admin: true,
      body: RuleBody,
      response: { 201: Rule, ...refused, 409: ErrorBody },
      detail: { summary: 'Refuse a brand, or one model pattern of a brand, with a reason', description: 'New requests and quotes for a matching item are refused with this reason; 409 when the same rule exists.' },
    })
    .delete(
      '/rules/:id',
      async ({ params }) => {
        await deleteRule(ctx.db, params.id);
        return { success: true as const, id: params.id };
      },
      { admin: true, response: { 200: Deleted, ...refused, 404: ErrorBody }, detail: { summary: 'Take a brand or model again', description: 'Deletes a refusal rule: matching items are quoted and accepted again.' } },
    )
    .get('/minimum', async () => ({ minimumValue: await getMinimum(ctx.db), currency }), {
      admin: true,
      response: { 200: Minimum, ...signedIn },
      detail: { summary: 'Minimum trade-in value', description: 'The least an item must be worth to be taken.' },
    })
    .put('/minimum', async ({ body }) => ({ minimumValue: await setMinimum(ctx.db, body.minimumValue), currency }), {
      admin: true,
      body: MinimumBody,
      response: { 200: Minimum, ...refused },
      detail: { summary: 'Set the minimum trade-in value', description: 'Set the minimum trade-in value (0: no minimum).' },
    })
    .get('/campaigns', () => listCampaigns(ctx.db), {
      admin: true,
      response: { 200: t.Array(Campaign), ...signedIn },
      detail: { summary: 'Bonus campaigns', description: 'Every bonus campaign, the latest to end first.' },
    })
    .post('/campaigns', async ({ body, status }) => status(201, await addCampaign(ctx.db, body)), {
      admin: true,
      body: CampaignBody,
      response: { 201: Campaign, ...refused },
      detail: { summary: 'Start a bonus campaign', description: 'Start a bonus campaign: a percentage or a fixed amount, a window, optionally one brand.' },
    })
    .post('/campaigns/:id/end', ({ params }) => endCampaign(ctx.db, params.id), {
      admin: true,
      response: { 200: Campaign, ...refused, 404: ErrorBody },
      detail: { summary: 'End a campaign now', description: 'Ends a running campaign at once; credits already given keep their bonus.' },
    });

  return new Elysia().use(customer).use(admin);
}
