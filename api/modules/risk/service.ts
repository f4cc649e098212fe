import type { AppContext } from '#api/context.ts';
import { AppError, badRequest, conflict, notFound } from '#api/lib/errors.ts';
import { cleanText, tooLongMessage } from '#api/lib/text.ts';
import type { BlockEntry } from './model.ts';
import { toBlockEntry } from './queries.ts';
import { ALREADY_BLOCKED, BLOCK_FIELD_LABELS, BLOCK_LIMITS, BLOCK_NOT_FOUND, BLOCK_REASON_REQUIRED, INVALID_BLOCK_ENTRY, SUBMISSION_REFUSED, parseBlockEntry } from './rules.ts';
import { isBlocked } from './queries.ts';

/** The writer of the block list (`risk_blocks`). */

/** Adds an email or @domain with the reason; the same entry twice is a 409 (the unique key decides a race). */
export async function addBlock(ctx: AppContext, input: { entry?: string | null; reason?: string | null }, createdBy: string): Promise<BlockEntry> {
  const entry = parseBlockEntry(input.entry);
  if (!entry) throw badRequest(INVALID_BLOCK_ENTRY);
  const reason = cleanText(input.reason);
  if (!reason) throw badRequest(BLOCK_REASON_REQUIRED);
  if (reason.length > BLOCK_LIMITS.reason) throw badRequest(tooLongMessage(BLOCK_FIELD_LABELS.reason, BLOCK_LIMITS.reason));
  const row = await ctx.db
    .insertInto('risk_blocks')
    .values({ entry, reason, created_by: createdBy })
    .onConflict((oc) => oc.column('entry').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!row) throw conflict(ALREADY_BLOCKED);
  ctx.log.info('block list entry added', { id: String(row.id), by: createdBy });
  return toBlockEntry(row);
}

/** Removes an entry by id, or by the entry itself (the CLI's `risk unblock EMAIL`); 404 when there is none. */
export async function removeBlock(ctx: AppContext, which: { id: string } | { entry: string }): Promise<BlockEntry> {
  let query = ctx.db.deleteFrom('risk_blocks');
  if ('id' in which) {
    if (!/^\d{1,15}$/.test(which.id)) throw notFound(BLOCK_NOT_FOUND);
    query = query.where('id', '=', which.id);
  } else {
    const entry = parseBlockEntry(which.entry);
    if (!entry) throw badRequest(INVALID_BLOCK_ENTRY);
    query = query.where('entry', '=', entry);
  }
  const row = await query.returningAll().executeTakeFirst();
  if (!row) throw notFound(BLOCK_NOT_FOUND);
  ctx.log.info('block list entry removed', { id: String(row.id) });
  return toBlockEntry(row);
}

/** Refuses a blocked customer's submission with the neutral sentence (403); the reason is never sent. */
export async function refuseIfBlocked(ctx: AppContext, email: string): Promise<void> {
  if (await isBlocked(ctx.db, email)) throw new AppError(403, SUBMISSION_REFUSED);
}
