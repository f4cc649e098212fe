import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { Db } from '#api/db/connect.ts';
import { compiledOnce, preparedMark } from '#api/db/prepared.ts';
import { IMAGE_TYPES, imageKey, imageKeyPrefix, isPublicId, newPublicId, type ImageContentType } from '#api/integrations/images/index.ts';
import { AppError, badRequest, unauthorized } from '#api/lib/errors.ts';
import { lockUser } from '#api/modules/users/queries.ts';
import { IMAGES_UNAVAILABLE, MAX_IMAGES_PER_REQUEST, MAX_UNATTACHED_UPLOADS, NEED_AN_IMAGE, tooManyUploadsMessage } from './rules.ts';
import { fingerprintPhoto } from './fingerprint.ts';
import { storeVariants } from './variants.ts';

export { IMAGES_UNAVAILABLE, MAX_UNATTACHED_UPLOADS, tooManyUploadsMessage };

export interface ImageRef {
  url: string;
  publicId: string;
}

/**
 * The address an image is served at: root-relative, `/media/<public id>.<ext>`.
 * Root-relative rather than `${PUBLIC_URL}/media/…` because the pages and the images are always
 * served by the same origin, and that origin is not always PUBLIC_URL (localhost in development,
 * a LAN address, a second hostname behind a proxy, http before TLS is added): a stored absolute
 * URL would break, or load mixed content, whenever the host differs or PUBLIC_URL changes, while
 * a root-relative one resolves against whatever origin served the page. The url column keeps
 * exactly this string; attachImages compares it exactly.
 */
export function mediaUrl(publicId: string, contentType: ImageContentType): string {
  return `/media/${publicId}.${IMAGE_TYPES[contentType]}`;
}

/** The image store failed (a bucket out of reach): a 503 the person can act on, the cause in the log. */
export function imageStoreFailed(ctx: AppContext, what: string, error: unknown): AppError {
  ctx.log.error('image store failed', { what, kind: ctx.images.kind, error });
  return new AppError(503, IMAGES_UNAVAILABLE, {}, { 'retry-after': '30' });
}

/**
 * Stores one sniffed image for `userId`: the row first (inside a per-user lock that enforces the
 * unattached-upload limit), then the bytes; if writing the bytes fails the row is removed again.
 */
export async function saveUpload(ctx: AppContext, userId: string, bytes: Uint8Array, contentType: ImageContentType): Promise<ImageRef> {
  const publicId = newPublicId();
  const url = mediaUrl(publicId, contentType);
  // kept beside the row so a photo already used in another customer's request is found (risk/photos.ts)
  const { sha256, dhash } = await fingerprintPhoto(bytes);
  await ctx.db.transaction().execute(async (trx) => {
    // Serializes one user's uploads so two at once cannot both pass the limit.
    if (!(await lockUser(trx, userId))) throw unauthorized();
    const { held } = await trx
      .selectFrom('request_images')
      .select((eb) => eb.fn.countAll<number>().as('held'))
      .where('uploaded_by', '=', userId)
      .where('request_id', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(held) >= MAX_UNATTACHED_UPLOADS) throw new AppError(429, tooManyUploadsMessage());
    await trx
      .insertInto('request_images')
      .values({ request_id: null, uploaded_by: userId, public_id: publicId, url, content_type: contentType, byte_size: bytes.byteLength, sha256, dhash })
      .execute();
  });
  try {
    await ctx.images.put(imageKey(publicId, contentType), bytes, contentType);
  } catch (error) {
    await ctx.db.deleteFrom('request_images').where('public_id', '=', publicId).execute();
    throw imageStoreFailed(ctx, 'put', error);
  }
  await storeVariants(ctx, publicId, bytes);
  return { url, publicId };
}

/**
 * Attaches a user's own unattached uploads to a request, in the order given (position 0..4).
 * Call it inside the transaction that creates the request: on any error nothing stays attached.
 * One conditional UPDATE takes every upload, so two requests can never take the same one.
 */
export async function attachImages(
  trx: Db,
  input: { userId: string; requestId: string; images: { url: string; publicId: string }[] },
): Promise<void> {
  const { userId, requestId, images } = input;
  if (images.length === 0) throw badRequest(NEED_AN_IMAGE);
  if (images.length > MAX_IMAGES_PER_REQUEST) throw badRequest(`You can attach at most ${MAX_IMAGES_PER_REQUEST} images`);
  const seen = new Set<string>();
  for (const image of images) {
    if (seen.has(image.publicId)) throw badRequest(`Image ${image.publicId} is listed more than once`);
    seen.add(image.publicId);
  }

  const rows = sql.join(images.map((image, position) => sql`(${image.publicId}::text, ${image.url}::text, ${position}::smallint)`));
  const taken = await sql<{ public_id: string }>`
    update request_images as ri
       set request_id = ${requestId}::uuid, position = wanted.position
      from (values ${rows}) as wanted (public_id, url, position)
     where ri.public_id = wanted.public_id
       and ri.url = wanted.url
       and ri.uploaded_by = ${userId}::uuid
       and ri.request_id is null
    returning ri.public_id`.execute(trx);

  if (taken.rows.length === images.length) return;
  // Undo what this call took (the caller's transaction would too, but a caller without one must not keep a half attach).
  const tookIds = taken.rows.map((r) => r.public_id);
  if (tookIds.length > 0) {
    await trx.updateTable('request_images').set({ request_id: null, position: 0 }).where('request_id', '=', requestId).where('public_id', 'in', tookIds).execute();
  }
  const took = new Set(tookIds);
  const missing = images.find((image) => !took.has(image.publicId))!;
  throw badRequest(`Image ${missing.publicId} is not one of your uploads`);
}

/** One statement for any number of requests (an array, not a list of values), compiled once and prepared. */
const itemImages = compiledOnce(['ids'], (db, p) =>
  db
    .selectFrom('request_images')
    .select(['request_id', 'url', 'public_id'])
    .modifyFront(preparedMark('item-images'))
    .where('request_id', '=', sql<string>`any(${p.ids}::uuid[])`)
    .where('kind', '=', 'item')
    .orderBy('request_id')
    .orderBy('position'),
);

/** Each request's images, ordered by position; every id asked for has an entry (possibly empty). */
export async function imagesOf(db: Db, requestIds: string[]): Promise<Map<string, ImageRef[]>> {
  const result = new Map<string, ImageRef[]>(requestIds.map((id) => [id, []]));
  if (requestIds.length === 0) return result;
  const rows = await itemImages(db, { ids: [...new Set(requestIds)] });
  for (const row of rows) result.get(row.request_id!)?.push({ url: row.url, publicId: row.public_id });
  return result;
}

/**
 * For deleting requests: removes their image rows inside the caller's transaction and returns the
 * public ids. Pass them to removeStoredImages once the transaction has committed, so a rolled-back
 * delete never loses its files.
 */
export async function deleteImagesOf(trx: Db, requestIds: string[]): Promise<string[]> {
  if (requestIds.length === 0) return [];
  const rows = await trx.deleteFrom('request_images').where('request_id', 'in', [...new Set(requestIds)]).returning('public_id').execute();
  return rows.map((r) => r.public_id);
}

/**
 * Removes the stored objects of these images: each upload and every variant (thumbnail) stored
 * beside it. A storage failure is logged, not thrown (the rows are already gone).
 */
export async function removeStoredImages(ctx: AppContext, publicIds: string[]): Promise<void> {
  if (publicIds.length === 0) return;
  try {
    for (const publicId of publicIds.filter(isPublicId)) {
      const keys: string[] = [];
      for await (const stored of ctx.images.list(imageKeyPrefix(publicId))) keys.push(stored.key);
      await ctx.images.delete(keys);
    }
  } catch (error) {
    ctx.log.error('could not remove stored images', { count: publicIds.length, error });
  }
}

/**
 * Deletes uploads never attached to a request within `olderThanHours`: the rows first (so an
 * attach racing with the cleanup either wins and keeps its image, or finds it gone), then the
 * files. Safe to run on several instances at once (SKIP LOCKED). Returns how many were removed.
 */
export async function removeUnattachedUploads(ctx: AppContext, olderThanHours = 24, options: { batchSize?: number } = {}): Promise<number> {
  const cutoff = new Date(Date.now() - olderThanHours * 3_600_000);
  const batch = options.batchSize ?? 500;
  let removed = 0;
  for (;;) {
    const rows = await ctx.db
      .deleteFrom('request_images')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('request_images')
          .select('id')
          .where('request_id', 'is', null)
          .where('created_at', '<', cutoff)
          .orderBy('created_at')
          .limit(batch)
          .forUpdate()
          .skipLocked(),
      )
      .where('request_id', 'is', null)
      .returning('public_id')
      .execute();
    await removeStoredImages(ctx, rows.map((r) => r.public_id));
    removed += rows.length;
    if (rows.length < batch) break;
  }
  if (removed > 0) ctx.log.info('removed unattached uploads', { count: removed });
  return removed;
}
