import type { AppContext } from '#api/context.ts';
import { imageKey } from '#api/integrations/images/index.ts';
import { carriesMetadata, cleanImage } from './clean.ts';
import { MAX_IMAGE_BYTES } from './rules.ts';
import { removeStoredImages } from './service.ts';
import { originalOf } from './variants.ts';

export interface StripReport {
  total: number;
  /** written again without metadata (with dryRun: would be) */
  cleaned: number;
  /** already without metadata */
  clean: number;
  failed: { publicId: string; error: string }[];
}

/**
 * Cleans the originals stored before uploads were (`swappoints images strip-metadata`): each one
 * that still carries EXIF, XMP, IPTC or an orientation is written again as an upload is now
 * (cleanImage), under the same key, and its row's size updated. Thumbnails need nothing: sharp
 * never wrote metadata into them. Safe to re-run; a clean image is only read.
 */
export async function stripStoredMetadata(ctx: AppContext, options: { dryRun?: boolean; onProgress?: (done: number, total: number) => void } = {}): Promise<StripReport> {
  const rows = await ctx.db.selectFrom('request_images').select(['public_id', 'content_type']).orderBy('id').execute();
  const report: StripReport = { total: rows.length, cleaned: 0, clean: 0, failed: [] };
  let done = 0;
  for (const row of rows) {
    const fail = (error: string) => report.failed.push({ publicId: row.public_id, error });
    try {
      const original = await originalOf(ctx, row.public_id);
      // null: sharp cannot even read its header
      const carries = original && (await carriesMetadata(original.bytes).catch(() => null));
      if (!original) fail('the original is not in the image store');
      else if (carries === null) fail('the image could not be decoded');
      else if (!carries) report.clean += 1;
      else {
        const bytes = await cleanImage(original.bytes, original.contentType, MAX_IMAGE_BYTES);
        if (!bytes) fail('the image could not be decoded');
        else if (bytes.byteLength > MAX_IMAGE_BYTES) fail('written again it would be larger than 5 MB; left as it is');
        else if (options.dryRun) report.cleaned += 1;
        else {
          await ctx.images.put(imageKey(row.public_id, original.contentType), bytes, original.contentType);
          const kept = await ctx.db.updateTable('request_images').set({ byte_size: bytes.byteLength }).where('public_id', '=', row.public_id).returning('id').execute();
          // removed (its request deleted) while we wrote it: do not leave the file behind
          if (kept.length === 0) await removeStoredImages(ctx, [row.public_id]);
          report.cleaned += 1;
        }
      }
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error));
    }
    options.onProgress?.(++done, rows.length);
  }
  return report;
}
