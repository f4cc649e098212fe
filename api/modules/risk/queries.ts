import type { Db } from '#api/db/connect.ts';
import type { RiskBlocksTable } from '#api/db/types.ts';
import type { Selectable } from 'kysely';
import type { BlockEntry, RiskFlag } from './model.ts';
import { entriesMatching } from './rules.ts';

export const toBlockEntry = (row: Selectable<RiskBlocksTable>): BlockEntry => ({
  id: String(row.id),
  entry: row.entry,
  reason: row.reason,
  createdBy: row.created_by,
  createdAt: new Date(row.created_at).toISOString(),
});

/** The block list, newest first. */
export async function listBlocks(db: Db): Promise<BlockEntry[]> {
  const rows = await db.selectFrom('risk_blocks').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map(toBlockEntry);
}

/** Whether this email is on the block list, itself or by its domain (or a parent domain). */
export async function isBlocked(db: Db, email: string): Promise<boolean> {
  const row = await db.selectFrom('risk_blocks').select('id').where('entry', 'in', entriesMatching(email)).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** A request's risk flags, for admins: oldest first, each naming the other request. */
export async function flagsOf(db: Db, requestId: string): Promise<RiskFlag[]> {
  const rows = await db
    .selectFrom('risk_flags')
    .select(['kind', 'other_request_id'])
    .where('request_id', '=', requestId)
    .orderBy('created_at')
    .orderBy('other_request_id')
    .execute();
  return rows.map((r) => ({ kind: r.kind, requestId: r.other_request_id }));
}
