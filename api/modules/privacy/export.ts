import type { Zippable } from 'fflate';
import type { AppContext } from '#api/context.ts';
import { imageKey, isImageContentType } from '#api/integrations/images/index.ts';
import { notFound } from '#api/lib/errors.ts';
import { normalizeEmail } from '#api/lib/email.ts';
import { findCustomer } from './erase.ts';
import { HOLDINGS, subjectOf } from './holdings.ts';
import { NO_SUCH_CUSTOMER } from './rules.ts';

export const EXPORT_JSON = 'swappoints-data.json';

export interface CustomerExport {
  zip: Uint8Array;
  email: string;
  images: number;
}

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * Everything held about one customer as a ZIP: `swappoints-data.json` (one key per HOLDINGS table)
 * and each of their photos as stored (`images/<public id>.<ext>`; thumbnails are made from these).
 * Images are stored without compression: they are compressed already.
 */
export async function exportCustomer(ctx: AppContext, user: { id: string; email: string }): Promise<CustomerExport> {
  const { zipSync, strToU8 } = await import('fflate'); // loaded by the first export, not by every server
  const subject = subjectOf(user);
  const data: Record<string, unknown> = {};
  for (const holding of HOLDINGS) if (holding.export) data[holding.table] = await holding.export(ctx.db, subject);
  const files: Zippable = {};
  const images = (data.request_images ?? []) as { publicId: string; contentType: string }[];
  const included: string[] = [];
  for (const image of images) {
    if (!isImageContentType(image.contentType)) continue;
    const key = imageKey(image.publicId, image.contentType);
    const stored = await ctx.images.get(key);
    if (!stored) continue;
    const name = `images/${key.split('/')[1]}`;
    files[name] = [await bytesOf(stored.body), { level: 0 }];
    included.push(name);
  }
  const document = {
    about: 'Everything SwapPoints holds about you, by table. Your photos are in the images folder of this ZIP.',
    exportedAt: new Date().toISOString(),
    email: user.email,
    images: included,
    ...data,
  };
  files[EXPORT_JSON] = strToU8(JSON.stringify(document, null, 2));
  return { zip: zipSync(files), email: user.email, images: included.length };
}

/** The export of the customer EMAIL names (the operator's `privacy export`, a Shopify data request); 404 when none is held. */
export async function exportByEmail(ctx: AppContext, rawEmail: string): Promise<CustomerExport> {
  const user = await findCustomer(ctx.db, rawEmail);
  if (!user) throw notFound(NO_SUCH_CUSTOMER(normalizeEmail(rawEmail)));
  return exportCustomer(ctx, user);
}
