import type { AppContext } from '#api/context.ts';
import { imageKey, isImageContentType } from '#api/integrations/images/index.ts';
import { differenceHash, fingerprintPhoto } from './fingerprint.ts';

export interface FingerprintBackfill {
  /** images whose hashes were filled in now */
  hashed: number;
  /** images whose stored file is missing or does not decode (left without hashes, tried again next time) */
  unreadable: number;
  /** the requests those newly hashed images belong to */
  requestIds: string[];
}

/**
 * Fills the SHA-256 and difference hash of images stored before they were computed at upload
 * (migration 016), reading each file back from the image store. Re-runnable: it only takes rows
 * still without a hash, and a row is written only while it still has none.
 */
export async function fillMissingFingerprints(ctx: AppContext, options: { batchSize?: number } = {}): Promise<FingerprintBackfill> {
  const batch = options.batchSize ?? 100;
  const report: FingerprintBackfill = { hashed: 0, unreadable: 0, requestIds: [] };
  const touched = new Set<string>();
  let after = '';
  for (;;) {
    const rows = await ctx.db
      .selectFrom('request_images')
      .select(['id', 'public_id', 'content_type', 'request_id'])
      .where('sha256', 'is', null)
      .where('id', '>', after || '00000000-0000-0000-0000-000000000000')
      .orderBy('id')
      .limit(batch)
      .execute();
    for (const row of rows) {
      const bytes = await readStored(ctx, row.public_id, row.content_type);
      // the stored bytes are the cleaned picture: one that no longer decodes counts as unreadable
      const print = bytes && (await differenceHash(bytes)) !== null ? await fingerprintPhoto(bytes) : null;
      if (!print) {
        report.unreadable++;
        continue;
      }
      const updated = await ctx.db
        .updateTable('request_images')
        .set({ sha256: print.sha256, dhash: print.dhash })
        .where('id', '=', row.id)
        .where('sha256', 'is', null)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) continue;
      report.hashed++;
      if (row.request_id) touched.add(row.request_id);
    }
    if (rows.length < batch) break;
    after = rows.at(-1)!.id;
  }
  report.requestIds = [...touched];
  return report;
}

async function readStored(ctx: AppContext, publicId: string, contentType: string): Promise<Uint8Array | null> {
  if (!isImageContentType(contentType)) return null;
  try {
    const stored = await ctx.images.get(imageKey(publicId, contentType));
    return stored ? new Uint8Array(await new Response(stored.body).arrayBuffer()) : null;
  } catch (error) {
    ctx.log.warn('could not read a stored image to hash it', { publicId, error });
    return null;
  }
}
