import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { Db } from '#api/db/connect.ts';
import { fillMissingFingerprints } from '#api/modules/images/fingerprint-backfill.ts';
import type { RescanReport } from './model.ts';
import { DUPLICATE_PHOTO_MAX_DISTANCE } from './rules.ts';

/**
 * Flags `requestId` and every request of ANOTHER customer that holds the same photo: the same
 * stored bytes (SHA-256), or a difference hash within DUPLICATE_PHOTO_MAX_DISTANCE bits (a re-saved
 * or resized copy). Both directions are stored, so each request's detail names the other.
 * Call it inside the transaction that attached the images. The comparison is one SQL statement
 * (`bit_count` of the XOR, PostgreSQL 14+ and PGlite); the advisory lock makes two customers
 * submitting the same photo at once find each other: the second waits for the first to commit.
 * Returns how many flag rows were added.
 */
export async function flagDuplicatePhotos(trx: Db, requestId: string): Promise<number> {
  await sql`select pg_advisory_xact_lock(hashtext('swappoints.risk.photos'))`.execute(trx);
  const added = await sql<{ request_id: string }>`
    with mine as (
      select ri.sha256, ri.dhash, er.user_id
        from request_images ri
        join exchange_requests er on er.id = ri.request_id
       where ri.request_id = ${requestId}::uuid and ri.kind = 'item' and ri.sha256 is not null
    ), others as (
      select distinct other.request_id as other_id
        from mine
        join request_images other
          on other.kind = 'item'
         and other.request_id is not null
         and other.request_id <> ${requestId}::uuid
         and (other.sha256 = mine.sha256
              or (mine.dhash is not null and other.dhash is not null
                  and bit_count((other.dhash # mine.dhash)::bit(64)) <= ${DUPLICATE_PHOTO_MAX_DISTANCE}))
        join exchange_requests oer on oer.id = other.request_id and oer.user_id <> mine.user_id
    )
    insert into risk_flags (request_id, other_request_id, kind)
    select ${requestId}::uuid, other_id, 'duplicate_photo' from others
    union all
    select other_id, ${requestId}::uuid, 'duplicate_photo' from others
    on conflict do nothing
    returning request_id`.execute(trx);
  return added.rows.length;
}

/**
 * `swappoints risk rescan-photos`: hashes the images stored before hashing existed, then compares
 * the requests they belong to. Re-runnable: hashed images are skipped and flags are never doubled.
 */
export async function rescanPhotos(ctx: AppContext): Promise<RescanReport> {
  const filled = await fillMissingFingerprints(ctx);
  let flagged = 0;
  for (const requestId of filled.requestIds) {
    flagged += await ctx.db.transaction().execute((trx) => flagDuplicatePhotos(trx, requestId));
  }
  return { hashed: filled.hashed, unreadable: filled.unreadable, flagged };
}
