import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '#api/db/types.ts';
import type { StateRequirement } from './rules.ts';

type Eb = ExpressionBuilder<Database, 'exchange_requests'>;

/**
 * A requirement of `rules.ts` (STEPS, TAB_STATES) as the condition of a query on exchange_requests.
 * A change puts it in its `update … where` so of two racing changes one wins; the queue's tabs list
 * by it. `(shipping_carrier is not null) = …` is the expression of the partial index on approved
 * requests, so the tabs can walk it.
 */
export function stateCondition(eb: Eb, requirement: StateRequirement): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [eb('status', '=', requirement.status)];
  if (requirement.shipped !== undefined) {
    conditions.push(requirement.shipped ? sql<boolean>`(shipping_carrier is not null) = true` : sql<boolean>`(shipping_carrier is not null) = false`);
  }
  if (requirement.received === true) conditions.push(eb('transit_status', '=', 'received'));
  if (requirement.received === false) conditions.push(eb.or([eb('transit_status', 'is', null), eb('transit_status', '<>', 'received')]));
  if (requirement.credited !== undefined) conditions.push(eb('credited_at', requirement.credited ? 'is not' : 'is', null));
  return conditions.length === 1 ? conditions[0]! : eb.and(conditions);
}
