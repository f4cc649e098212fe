import type { Db } from '#api/db/connect.ts';
import { emitWebhookEvent } from '#api/modules/webhooks/service.ts';
import { creditRecordQuery, toCreditRecord } from './record.ts';

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

/** The call a push outcome makes inside its transaction: the event's data is the ledger record as the admin API shows it. */
export function emitCreditEvent(trx: Db, type: 'credit.pushed' | 'credit.failed', ledgerId: number): Promise<void> {
  return emitWebhookEvent(trx, type, async () => {
    const row = await creditRecordQuery(trx).select(['l.created_at', 'l.pushed_at']).where('l.id', '=', ledgerId).executeTakeFirstOrThrow();
    return toCreditRecord(row, { createdAt: iso(row.created_at)!, pushedAt: iso(row.pushed_at) });
  });
}
