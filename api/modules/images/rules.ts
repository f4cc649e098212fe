/**
 * Image limits and messages, and the variants (thumbnails), as pages and the server both name them.
 * Plain TS: `src/` imports it.
 * Each upload `/media/<id>.<ext>` is also served resized, as WebP, at `/media/<id>.w<width>.webp`
 * for every width below (never wider than the original).
 */
import { IMAGE_LIMITS } from '#api/config/shop.ts';

/** 5MB, the spec's limit per image (api/config/shop.ts). */
export const MAX_IMAGE_BYTES = IMAGE_LIMITS.maxBytes;
export const MAX_IMAGES_PER_REQUEST = IMAGE_LIMITS.perRequest;
export const NEED_AN_IMAGE = 'Please upload at least one image of the product';

/** Uploads a user may hold that are not yet attached to a request, so nobody fills the disk. */
export const MAX_UNATTACHED_UPLOADS = 20;
export const tooManyUploadsMessage = () =>
  `You already have ${MAX_UNATTACHED_UPLOADS} uploaded images that are not part of a request. Submit your request, or wait a day for unused uploads to expire, before uploading more.`;
export const IMAGES_UNAVAILABLE = 'Images cannot be stored or shown right now. Please try again in a few minutes.';

export const tooLargeMessage = (name: string) => `File ${name} is too large. Max size is 5MB`;
export const notAnImageMessage = (name: string) => `File ${name} is not an image`;

/** The browser-side check of a picked file (the server checks the bytes again): an error text or null. */
export function checkImageFile(file: { name: string; size: number; type: string }): string | null {
  if (file.size > MAX_IMAGE_BYTES) return tooLargeMessage(file.name);
  if (!file.type.startsWith('image/')) return notAnImageMessage(file.name);
  return null;
}

export const VARIANT_WIDTHS = [320, 1280] as const;
export type VariantWidth = (typeof VARIANT_WIDTHS)[number];

export const variantName = (width: VariantWidth) => `w${width}`;

const MEDIA_URL = /^\/media\/([0-9a-f]{40})\.([a-z]{3,4})$/;

/** The address of one variant of an uploaded image, or null for a URL that is not one of ours. */
export function variantUrl(url: string, width: VariantWidth): string | null {
  const match = MEDIA_URL.exec(url);
  return match ? `/media/${match[1]}.${variantName(width)}.webp` : null;
}

/**
 * `src`, `srcSet` and `sizes` for an <img> showing `url` at about `sizes` CSS pixels wide: the
 * browser picks the smallest variant that covers its screen; the original is never in the set
 * (it opens on demand). A URL that is not ours is shown as it is.
 */
export function responsiveImage(url: string, sizes: string): { src: string; srcSet?: string; sizes?: string } {
  const set = VARIANT_WIDTHS.map((w) => [variantUrl(url, w), w] as const);
  if (set.some(([u]) => u === null)) return { src: url };
  return { src: set[0]![0]!, srcSet: set.map(([u, w]) => `${u} ${w}w`).join(', '), sizes };
}
