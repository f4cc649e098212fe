import { wholeMoney } from '#api/lib/money.ts';
import { tooLongMessage } from '#api/lib/text.ts';
import { CONDITIONS, type Condition } from '#api/db/types.ts';
import { DEFAULT_MULTIPLIERS, VALUATION_LIMITS } from '#api/config/shop.ts';

/**
 * The valuation guide's rules and texts, in plain TypeScript: the API, the pages and the CLI read
 * them from here (estimate and bonus arithmetic, the customer's and the admin's messages, limits).
 */

export { CONDITIONS, type Condition };

export const INVALID_CONDITION = `Please choose a valid condition: ${CONDITIONS.join(', ')}`;

/** The starting multipliers and the guide's limits are shop settings: api/config/shop.ts. */
export { DEFAULT_MULTIPLIERS };
export const LIMITS = VALUATION_LIMITS;

export type CampaignKind = 'percent' | 'amount';

export interface CampaignTerms {
  kind: CampaignKind;
  value: number;
}

export { wholeMoney };

/** base × multiplier, in whole currency units. */
export function estimateOf(baseValue: number, percent: number): number {
  return Math.round((baseValue * percent) / 100);
}

/** The bonus a campaign adds to a credit of `amount`, rounded to a whole number. */
export function bonusOf(campaign: CampaignTerms | null | undefined, amount: number): number {
  if (!campaign || !(amount > 0)) return 0;
  return campaign.kind === 'percent' ? Math.round((amount * campaign.value) / 100) : Math.round(campaign.value);
}

/** '10% bonus' or '₹100 bonus'. */
export function campaignTermsText(campaign: CampaignTerms, currency: string): string {
  return campaign.kind === 'percent' ? `${Number(campaign.value)}% bonus` : `${wholeMoney(campaign.value, currency)} bonus`;
}

/** 'Diwali bonus' for a campaign named 'Diwali', but 'Winter trade-in bonus' (not '… bonus bonus') for one already named so. */
export function campaignBonusName(name: string | null | undefined): string {
  const label = name?.trim() || 'campaign';
  return /\bbonus$/i.test(label) ? label : `${label} bonus`;
}

// ---- the customer's texts ------------------------------------------------------------------------

export const NO_MATCH = 'We will value this item after inspection.';
export const AFTER_INSPECTION = 'final value after inspection';
export const estimateText = (estimate: number, currency: string) => `Estimated credit: ${wholeMoney(estimate, currency)}`;
export const bonusText = (bonus: number, currency: string) => `+ ${wholeMoney(bonus, currency)} bonus`;
export const belowMinimum = (minimum: number, currency: string) => `We can't take this item: it is worth less than ${wholeMoney(minimum, currency)}.`;

// ---- the admin's texts ---------------------------------------------------------------------------

export const creditReasonRequired = (quote: number, currency: string) =>
  `The credit is below the ${wholeMoney(quote, currency)} the customer was quoted: please give a reason.`;
export const ENTRY_NOT_FOUND = 'Guide entry not found';
export const RULE_NOT_FOUND = 'Rule not found';
export const CAMPAIGN_NOT_FOUND = 'Campaign not found';
/** Each field of the guide entry, rule and campaign forms as the form labels it: messages name fields by these. */
export const VALUATION_FIELD_LABELS: Record<string, string> = {
  brand: 'Brand',
  model: 'Model pattern',
  name: 'Name',
  baseValue: 'Base value',
  isActive: 'Active',
  reason: 'Reason customers see',
  kind: 'Bonus',
  value: 'Value',
  startsAt: 'From',
  endsAt: 'Until',
};
const labelOf = (field: string) => VALUATION_FIELD_LABELS[field] ?? field;
export const ENTRY_FIELDS_REQUIRED = (missing: readonly string[]) => `Please fill in all required fields: ${missing.map(labelOf).join(', ')}`;
/** A text field too long (or not text), in the form's words; the form stops at the same limit. */
export const valuationTextError = (field: keyof typeof LIMITS | 'model', max: number) => tooLongMessage(labelOf(field === 'campaignName' ? 'name' : field), max);
export const entryExists = (brand: string, model: string) => `The guide already has an entry for ${brand} ${model}.`;
export const ruleExists = (brand: string, model: string | null) => `There is already a rule for ${brand}${model ? ` ${model}` : ''}.`;
export const INVALID_BASE_VALUE = `The base value must be a number from 0 to ${LIMITS.money.toLocaleString('en-IN')}.`;
export const INVALID_MINIMUM = `The minimum must be a number from 0 to ${LIMITS.money.toLocaleString('en-IN')}.`;
export const INVALID_PERCENT = 'A multiplier must be a percentage from 0 to 100.';
export const INVALID_CAMPAIGN_VALUE = 'A bonus is a percentage above 0 and at most 100, or an amount above 0.';
export const INVALID_WINDOW = 'From and Until must be dates (yyyy-mm-dd), with Until on or after From.';
export const RULE_REASON_REQUIRED = 'Please give the reason customers will see.';

/**
 * A campaign date: yyyy-mm-dd is a whole day in UTC (`end` true: the window runs to the end of
 * that day), anything else must be an ISO 8601 date-time. Null when it is neither.
 */
export function parseWindowDate(value: string, end = false): Date | null {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (day) {
    const date = new Date(`${value.trim()}T00:00:00Z`);
    if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value.trim()) return null;
    return end ? new Date(date.getTime() + 86_400_000) : date;
  }
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value.trim())) return null;
  const date = new Date(value.trim());
  return Number.isNaN(date.getTime()) ? null : date;
}
