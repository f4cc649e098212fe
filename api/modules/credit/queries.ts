import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database, PushStatus } from '#api/db/types.ts';
import { cleanText, containsPattern } from '#api/lib/text.ts';

/**
 * Which exchange credits of the ledger a reader wants: one filter for the history page
 * (`history.ts`), its CSV download (`export.ts`) and the CLI export (`ledger-export.ts`).
 */
export interface LedgerFilter {
  status?: PushStatus;
  /** a part of the user ID or the exchange request ID (trigram-indexed) */
  q?: string;
  /** q also matches a part of the customer's email (the history page shows it beside the ids) */
  qMatchesEmail?: boolean;
  /** only rows with a ledger id above this one */
  afterId?: number;
  /** only rows with a ledger id up to this one */
  upTo?: number;
  /** created at or after */
  since?: Date;
  /** created before */
  until?: Date;
}

type LedgerScope = ExpressionBuilder<Database & { l: Database['credit_ledger'] }, 'l'>;

/** The condition FILTER puts on the ledger, read as `credit_ledger as l`. */
export function ledgerWhere(filter: LedgerFilter) {
  return (eb: LedgerScope): Expression<SqlBool> => {
    const conditions: Expression<SqlBool>[] = [eb('l.type', '=', 'exchange_credit')];
    if (filter.upTo !== undefined) conditions.push(eb('l.id', '<=', filter.upTo));
    if (filter.afterId !== undefined) conditions.push(eb('l.id', '>', filter.afterId));
    if (filter.since) conditions.push(eb('l.created_at', '>=', filter.since));
    if (filter.until) conditions.push(eb('l.created_at', '<', filter.until));
    if (filter.status) conditions.push(eb('l.push_status', '=', filter.status));
    const q = cleanText(filter.q);
    if (q) {
      const pattern = containsPattern(q);
      const inIds = eb(sql<string>`(l.user_id::text || ' ' || l.exchange_request_id::text)`, 'like', pattern);
      conditions.push(
        filter.qMatchesEmail
          ? eb.or([inIds, eb('l.user_id', 'in', eb.selectFrom('users').select('users.id').where(sql<string>`lower(users.email)`, 'like', pattern))])
          : inIds,
      );
    }
    return eb.and(conditions);
  };
}
