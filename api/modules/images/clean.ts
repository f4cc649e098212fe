import type { Sharp } from 'sharp';
import type { ImageContentType } from '#api/integrations/images/index.ts';

/** A 5 MB file can still decode to a huge bitmap (a decompression bomb): refuse past 50 megapixels. */
export const MAX_INPUT_PIXELS = 50_000_000;

let loading: Promise<typeof import('sharp').default> | undefined;
/**
 * sharp, loaded at the first image: libvips adds about 15 MB to the server for good
 * (bench:memory), and a server that never receives an upload never needs it. libvips' operation
 * cache is off: each upload is decoded once, so a cache would only keep its images in memory.
 */
export const loadSharp = () =>
  (loading ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  }));

/** Reads an image whole, refusing anything libvips reports as an error (a truncated or forged file). */
export async function decodeImage(bytes: Uint8Array, options: { animated?: boolean } = {}): Promise<Sharp> {
  const sharp = await loadSharp();
  return sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: options.animated ?? false });
}

const ANIMATED: readonly ImageContentType[] = ['image/gif', 'image/webp'];

/** Qualities a lossy picture is written at, best first, until it fits the size limit (the browser's own scaling goes down to 60). */
const QUALITIES = [90, 80, 70, 60] as const;

function writer(image: Sharp, type: ImageContentType, quality: number): Sharp {
  if (type === 'image/jpeg') return image.jpeg({ quality });
  if (type === 'image/webp') return image.webp({ quality });
  if (type === 'image/avif') return image.avif({ quality: Math.round(quality * 0.7) }); // AVIF's scale runs lower: 90 → 63
  return type === 'image/png' ? image.png({ compressionLevel: 9 }) : image.gif();
}

/**
 * The picture an upload shows, decoded and written again in its own format: upright (the EXIF
 * orientation applied), with no EXIF (GPS position, camera serial, owner), XMP or IPTC left, since
 * sharp writes no metadata unless asked to, and nothing that rode along after the image data.
 * A lossy picture is written at the best quality that keeps it within `maxBytes` (a file sent at a
 * lower quality than ours would otherwise grow past the limit); a lossless one as it comes out.
 * Null when the bytes do not decode as an image.
 */
export async function cleanImage(bytes: Uint8Array, type: ImageContentType, maxBytes: number): Promise<Uint8Array | null> {
  await loadSharp(); // a sharp that cannot load is a fault, not an image that does not decode
  try {
    const image = await decodeImage(bytes, { animated: ANIMATED.includes(type) });
    const { pages = 1 } = await image.metadata();
    // rotate() with no angle applies the EXIF orientation; an animation has none to apply.
    if (pages === 1) image.rotate();
    const lossy = type === 'image/jpeg' || type === 'image/webp' || type === 'image/avif';
    let written = new Uint8Array();
    for (const quality of lossy ? QUALITIES : [0]) {
      written = new Uint8Array(await writer(image.clone(), type, quality).toBuffer());
      if (written.byteLength <= maxBytes) break;
    }
    return written;
  } catch {
    return null;
  }
}

/** Whether a stored image still carries metadata or an orientation to apply (`swappoints images strip-metadata`). */
export async function carriesMetadata(bytes: Uint8Array): Promise<boolean> {
  const sharp = await loadSharp();
  const meta = await sharp(bytes).metadata();
  return Boolean(meta.exif || meta.xmp || meta.iptc || (meta.orientation ?? 1) > 1);
}
