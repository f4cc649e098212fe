import type { GeneratedAlways } from 'kysely';
import type { CreatedAt } from '../columns.ts';

/** Risk controls: the block list and duplicate-photo flags (issue 24). */

/** A block-list entry (migration 016): a lower-case email or '@domain'; the reason is for admins only. */
export interface RiskBlocksTable {
  id: GeneratedAlways<string>;
  entry: string;
  reason: string;
  created_by: string;
  created_at: CreatedAt;
}

export const RISK_FLAG_KINDS = ['duplicate_photo'] as const;
export type RiskFlagKind = (typeof RISK_FLAG_KINDS)[number];

/** A request flagged for review (migration 016), with the request that caused it (both directions are stored). */
export interface RiskFlagsTable {
  request_id: string;
  other_request_id: string;
  kind: RiskFlagKind;
  created_at: CreatedAt;
}
