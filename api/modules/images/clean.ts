import sharp from 'sharp';
import type { ImageContentType } from '#api/integrations/images/index.ts';

/** A 5 MB file can still decode to a huge bitmap (a decompression bomb): refuse past 50 megapixels. */
export const MAX_INPUT_PIXELS = 50_000_000;

/** Reads an image whole, refusing anything libvips reports as an error (a truncated or forged file). */
export const decodeImage = (bytes: Uint8Array, options: { animated?: boolean } = {}) =>
  sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: options.animated ?? false });

const ANIMATED: readonly ImageContentType[] = ['image/gif', 'image/webp'];

/**
 * The picture an upload shows, decoded and written again in its own format: upright (the EXIF
 * orientation applied), with no EXIF (GPS position, camera serial, owner), XMP or IPTC left, since
 * sharp writes no metadata unless asked to, and nothing that rode along after the image data.
 * Null when the bytes do not decode as an image.
 */
export async function cleanImage(bytes: Uint8Array, type: ImageContentType): Promise<Uint8Array | null> {
  try {
    const animated = ANIMATED.includes(type);
    const image = decodeImage(bytes, { animated });
    const { pages = 1 } = await image.metadata();
    // rotate() with no angle applies the EXIF orientation; an animation has none to apply.
    if (pages === 1) image.rotate();
    const written =
      type === 'image/jpeg' ? image.jpeg({ quality: 90 })
      : type === 'image/png' ? image.png({ compressionLevel: 9 })
      : type === 'image/webp' ? image.webp({ quality: 90 })
      : type === 'image/gif' ? image.gif()
      : image.avif();
    return new Uint8Array(await written.toBuffer());
  } catch {
    return null;
  }
}

/** Whether a stored image still carries metadata or an orientation to apply (`swappoints images strip-metadata`). */
export async function carriesMetadata(bytes: Uint8Array): Promise<boolean> {
  const meta = await sharp(bytes).metadata();
  return Boolean(meta.exif || meta.xmp || meta.iptc || (meta.orientation ?? 1) > 1);
}
