import type { AppContext } from '#api/context.ts';
import { imageKey, isImageContentType, variantKey, type ImageContentType, type StoredObject } from '#api/integrations/images/index.ts';
import { decodeImage } from './clean.ts';
import { VARIANT_WIDTHS, variantName, type VariantWidth } from './rules.ts';

/**
 * Resized WebP copies of each upload (rules.ts names them), written and read only through the
 * image store, beside the original under the same id, so removing an image removes them too.
 * Made at upload; an image from before (or whose making failed) gets them on its first request,
 * or from `swappoints images variants`.
 */

const WEBP_QUALITY = 78;

export async function renderVariants(original: Uint8Array): Promise<Map<VariantWidth, Uint8Array>> {
  const out = new Map<VariantWidth, Uint8Array>();
  // rotate() with no angle applies the EXIF orientation, which WebP output would otherwise drop.
  const source = (await decodeImage(original)).rotate();
  for (const width of VARIANT_WIDTHS) {
    const bytes = await source
      .clone()
      .resize({ width, height: width, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: WEBP_QUALITY })
      .toBuffer();
    out.set(width, new Uint8Array(bytes));
  }
  return out;
}

/** Makes and stores every variant; a picture sharp cannot read is logged and keeps only its original. */
export async function storeVariants(ctx: AppContext, publicId: string, original: Uint8Array): Promise<boolean> {
  let rendered: Map<VariantWidth, Uint8Array>;
  try {
    rendered = await renderVariants(original);
  } catch (error) {
    ctx.log.warn('could not make thumbnails of an image', { publicId, error: String(error) });
    return false;
  }
  try {
    await Promise.all([...rendered].map(([width, bytes]) => ctx.images.put(variantKey(publicId, variantName(width), 'image/webp'), bytes, 'image/webp')));
    return true;
  } catch (error) {
    ctx.log.warn('could not store thumbnails of an image', { publicId, error: String(error) });
    return false;
  }
}

export async function originalOf(ctx: AppContext, publicId: string): Promise<{ contentType: ImageContentType; bytes: Uint8Array } | null> {
  const row = await ctx.db.selectFrom('request_images').select('content_type').where('public_id', '=', publicId).executeTakeFirst();
  if (!row || !isImageContentType(row.content_type)) return null;
  const stored = await ctx.images.get(imageKey(publicId, row.content_type));
  if (!stored) return null;
  return { contentType: row.content_type, bytes: new Uint8Array(await new Response(stored.body).arrayBuffer()) };
}

/** One image's variants being made, so many requests for a missing thumbnail make it once. */
const making = new Map<string, Promise<boolean>>();

function makeOnce(ctx: AppContext, publicId: string, original: Uint8Array): Promise<boolean> {
  let job = making.get(publicId);
  if (!job) {
    job = storeVariants(ctx, publicId, original).finally(() => making.delete(publicId));
    making.set(publicId, job);
  }
  return job;
}

/**
 * A variant of an image: stored, or made now from the original (lazily, for uploads from before
 * thumbnails). Null when there is no such image or its original cannot be resized: an original is
 * never served under a thumbnail's name.
 */
export async function readVariant(ctx: AppContext, publicId: string, width: VariantWidth): Promise<StoredObject | null> {
  const key = variantKey(publicId, variantName(width), 'image/webp');
  const stored = await ctx.images.get(key);
  if (stored) return stored;
  const original = await originalOf(ctx, publicId);
  if (!original || !(await makeOnce(ctx, publicId, original.bytes))) return null;
  return ctx.images.get(key);
}

export interface BackfillReport {
  total: number;
  made: number;
  present: number;
  failed: { publicId: string; error: string }[];
}

/** Makes the variants every stored image is missing (`swappoints images variants`); safe to re-run. */
export async function backfillVariants(ctx: AppContext, options: { onProgress?: (done: number, total: number) => void } = {}): Promise<BackfillReport> {
  const rows = await ctx.db.selectFrom('request_images').select(['public_id', 'content_type']).orderBy('id').execute();
  const report: BackfillReport = { total: rows.length, made: 0, present: 0, failed: [] };
  let done = 0;
  for (const row of rows) {
    try {
      const keys = VARIANT_WIDTHS.map((w) => variantKey(row.public_id, variantName(w), 'image/webp'));
      const present = await Promise.all(keys.map((k) => ctx.images.exists(k)));
      if (present.every(Boolean)) report.present += 1;
      else {
        const original = await originalOf(ctx, row.public_id);
        if (!original) report.failed.push({ publicId: row.public_id, error: 'the original is not in the image store' });
        else if (await makeOnce(ctx, row.public_id, original.bytes)) report.made += 1;
        else report.failed.push({ publicId: row.public_id, error: 'the image could not be decoded' });
      }
    } catch (error) {
      report.failed.push({ publicId: row.public_id, error: error instanceof Error ? error.message : String(error) });
    }
    options.onProgress?.(++done, rows.length);
  }
  return report;
}
