import type { Generated } from 'kysely';
import type { Condition, Created, Id, Money, Timestamp } from '../columns.ts';

/** The valuation guide: entries, condition multipliers, settings, rules, bonus campaigns. */

export interface ValuationEntriesTable {
  id: Id;
  brand: string;
  model: string;
  name: string;
  base_value: Money;
  is_active: Generated<boolean>;
  created_at: Created;
  updated_at: Timestamp;
}

export interface ValuationConditionsTable {
  condition: Condition;
  percent: Money;
}

export interface ValuationSettingsTable {
  id: Generated<boolean>;
  minimum_value: Money;
}

export interface ValuationRulesTable {
  id: Id;
  brand: string;
  model: string | null;
  reason: string;
  created_at: Created;
}

export interface BonusCampaignsTable {
  id: Id;
  name: string;
  kind: 'percent' | 'amount';
  value: Money;
  brand: string | null;
  starts_at: Timestamp;
  ends_at: Timestamp;
  created_at: Created;
}
