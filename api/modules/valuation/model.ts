import { t, type UnwrapSchema } from 'elysia';
import { CONDITIONS } from '#api/db/types.ts';
import { INVALID_BASE_VALUE, INVALID_CAMPAIGN_VALUE, INVALID_WINDOW, LIMITS, valuationTextError } from './rules.ts';

/** The JSON shapes of the valuation guide, quotes and bonus campaigns. */

const nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T) => t.Union([schema, t.Null()]);
const dateTime = t.String({ description: 'an ISO 8601 date-time (UTC)' });

export const QuoteMatch = t.Object({ id: t.Number(), brand: t.String(), model: t.String(), name: t.String() });

export const EligibleQuote = t.Object({
  eligible: t.Literal(true),
  /** base × the condition's multiplier, whole currency units; null when the guide has no match */
  estimate: nullable(t.Number()),
  /** what the best running campaign adds to the estimate; null when the guide has no match */
  bonus: nullable(t.Number()),
  currency: t.String(),
  match: nullable(QuoteMatch),
});
export const IneligibleQuote = t.Object({ eligible: t.Literal(false), reason: t.String() });
export const Quote = t.Union([EligibleQuote, IneligibleQuote]);

export const QuoteQuery = t.Object(
  {
    brand: t.String({ maxLength: LIMITS.brand, error: `brand is required (at most ${LIMITS.brand} characters)` }),
    productName: t.String({ maxLength: 200, error: 'productName is required (at most 200 characters)' }),
    condition: t.String({ maxLength: 50, error: 'condition is required' }),
  },
  { error: 'Send brand, productName and condition.' },
);

/** The quote a request was given when it was submitted. */
export const StoredQuote = t.Object({ estimate: t.Number(), bonus: t.Number(), currency: t.String() });

export const GuideEntry = t.Object({
  id: t.Number(),
  brand: t.String(),
  model: t.String({ description: 'matched case-insensitively inside the product name' }),
  name: t.String(),
  baseValue: t.Number({ description: 'the value of a new unit in the shop currency' }),
  isActive: t.Boolean(),
  updatedAt: dateTime,
});

const ENTRY_BODY = 'Send the entry as JSON: Brand, Model pattern and Name as text, Base value as a number, Active as true or false.';
const optionalText = (max: number, error: string) => t.Optional(t.Union([t.String({ maxLength: max }), t.Null()], { error }));
const labelled = (field: 'brand' | 'model' | 'name' | 'reason' | 'campaignName') => optionalText(LIMITS[field], valuationTextError(field, LIMITS[field]));
export const EntryBody = t.Object(
  {
    brand: labelled('brand'),
    model: labelled('model'),
    name: labelled('name'),
    baseValue: t.Optional(t.Union([t.Number(), t.String({ maxLength: 30 }), t.Null()], { error: INVALID_BASE_VALUE })),
    isActive: t.Optional(t.Union([t.Boolean(), t.Null()], { error: 'Active must be on or off (true or false).' })),
  },
  { error: ENTRY_BODY },
);

export const EntriesQuery = t.Object({
  page: t.Optional(t.Integer({ minimum: 1, maximum: 1_000_000, error: 'page must be a whole number of at least 1' })),
  pageSize: t.Optional(t.Integer({ minimum: 1, maximum: 100, error: 'pageSize must be a whole number from 1 to 100' })),
  q: t.Optional(t.String({ maxLength: 200, error: 'q must be at most 200 characters' })),
});

export const Multiplier = t.Object({ condition: t.UnionEnum(CONDITIONS), percent: t.Number() });
const PERCENTS = 'Send percentages from 0 to 100 by condition, e.g. { "good": 60 }.';
export const MultipliersBody = t.Partial(
  t.Object(Object.fromEntries(CONDITIONS.map((c) => [c, t.Number({ minimum: 0, maximum: 100, error: PERCENTS })])) as Record<(typeof CONDITIONS)[number], ReturnType<typeof t.Number>>),
  { error: PERCENTS, additionalProperties: false },
);

export const Rule = t.Object({ id: t.Number(), brand: t.String(), model: nullable(t.String()), reason: t.String(), createdAt: dateTime });
const RULE_BODY = 'Send the rule as JSON: Brand, an optional Model pattern and the Reason customers see, as text.';
export const RuleBody = t.Object({ brand: labelled('brand'), model: labelled('model'), reason: labelled('reason') }, { error: RULE_BODY });

export const Minimum = t.Object({ minimumValue: t.Number(), currency: t.String() });
export const MinimumBody = t.Object(
  { minimumValue: t.Union([t.Number(), t.String({ maxLength: 30 })], { error: 'Send minimumValue, a number of at least 0.' }) },
  { error: 'Send minimumValue, a number of at least 0.' },
);

export const Campaign = t.Object({
  id: t.Number(),
  name: t.String(),
  kind: t.Union([t.Literal('percent'), t.Literal('amount')]),
  value: t.Number(),
  brand: nullable(t.String()),
  startsAt: dateTime,
  endsAt: dateTime,
  running: t.Boolean(),
});
const CAMPAIGN_BODY = 'Send the campaign as JSON: Name, Bonus (percent or amount), Value, From and Until (yyyy-mm-dd) and an optional Brand.';
export const CampaignBody = t.Object(
  {
    name: labelled('campaignName'),
    kind: t.Optional(t.Union([t.Literal('percent'), t.Literal('amount')], { error: 'Bonus must be a percentage or a fixed amount.' })),
    value: t.Optional(t.Union([t.Number(), t.String({ maxLength: 30 })], { error: INVALID_CAMPAIGN_VALUE })),
    brand: labelled('brand'),
    startsAt: optionalText(40, INVALID_WINDOW),
    endsAt: optionalText(40, INVALID_WINDOW),
  },
  { error: CAMPAIGN_BODY },
);

/** What the admin's Assign Credit dialog needs to suggest a credit and show the bonus. */
export const CreditGuide = t.Object({
  match: nullable(t.Object({ id: t.Number(), brand: t.String(), model: t.String(), name: t.String(), baseValue: t.Number() })),
  multipliers: t.Array(Multiplier),
  campaign: nullable(t.Object({ id: t.Number(), name: t.String(), kind: t.Union([t.Literal('percent'), t.Literal('amount')]), value: t.Number() })),
});

export type Quote = UnwrapSchema<typeof Quote>;
export type Minimum = UnwrapSchema<typeof Minimum>;
export type QuoteMatch = UnwrapSchema<typeof QuoteMatch>;
export type StoredQuote = UnwrapSchema<typeof StoredQuote>;
export type GuideEntry = UnwrapSchema<typeof GuideEntry>;
export type EntryBody = UnwrapSchema<typeof EntryBody>;
export type Multiplier = UnwrapSchema<typeof Multiplier>;
export type Rule = UnwrapSchema<typeof Rule>;
export type Campaign = UnwrapSchema<typeof Campaign>;
export type CampaignBody = UnwrapSchema<typeof CampaignBody>;
export type CreditGuide = UnwrapSchema<typeof CreditGuide>;
