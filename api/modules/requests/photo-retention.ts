import type { AppContext } from '#api/context.ts';
import { deleteImagesOf, removeStoredImages } from '#api/modules/images/service.ts';

export interface PhotoRetentionReport {
  /** requests whose photos were (or, on a dry run, would be) removed */
  requests: number;
  photos: number;
  dryRun: boolean;
}

/**
 * Deletes the photos of requests completed or declined more than PHOTO_RETENTION_DAYS ago: the
 * image rows and `photos_removed_at` in one transaction per batch (claimed with SKIP LOCKED, so
 * instances running it together never take the same request), the stored files (originals and
 * thumbnails, local or S3) after the commit. A request keeps everything else and says when its
 * photos went. Re-running changes nothing.
 */
export async function removeExpiredPhotos(
  ctx: AppContext,
  options: { asOf?: Date; dryRun?: boolean; batchSize?: number } = {},
): Promise<PhotoRetentionReport> {
  const cutoff = new Date((options.asOf ?? new Date()).getTime() - ctx.settings.photoRetentionDays * 86_400_000);
  const batch = options.batchSize ?? 200;
  const closedBefore = ctx.db
    .selectFrom('exchange_requests')
    .select('id')
    .where('photos_removed_at', 'is', null)
    .where('status', 'in', ['completed', 'declined'])
    .where((eb) => eb(eb.fn.coalesce('completed_at', 'decided_at'), '<', cutoff));

  if (options.dryRun) {
    const counted = await ctx.db
      .selectFrom('request_images')
      .select([(eb) => eb.fn.count<string>('request_id').distinct().as('requests'), (eb) => eb.fn.countAll<string>().as('photos')])
      .where('request_id', 'in', closedBefore)
      .executeTakeFirstOrThrow();
    return { requests: Number(counted.requests), photos: Number(counted.photos), dryRun: true };
  }

  const report: PhotoRetentionReport = { requests: 0, photos: 0, dryRun: false };
  for (;;) {
    const { ids, publicIds } = await ctx.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('exchange_requests')
        .set({ photos_removed_at: new Date() })
        .where('id', 'in', closedBefore.orderBy((eb) => eb.fn.coalesce('completed_at', 'decided_at')).limit(batch).forUpdate().skipLocked())
        .where('photos_removed_at', 'is', null)
        .returning('id')
        .execute();
      const ids = claimed.map((r) => r.id);
      return { ids, publicIds: await deleteImagesOf(trx, ids) };
    });
    await removeStoredImages(ctx, publicIds);
    report.requests += ids.length;
    report.photos += publicIds.length;
    if (ids.length < batch) break;
  }
  if (report.requests > 0) ctx.log.info('removed photos past their retention', { requests: report.requests, photos: report.photos });
  return report;
}
