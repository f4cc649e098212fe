import { decodeImage, loadSharp } from './clean.ts';

/** What identifies a stored photo: its exact bytes, and its look (a 64-bit difference hash). */
export interface PhotoFingerprint {
  sha256: string;
  /** the dHash as a signed 64-bit integer in decimal, as the bigint column keeps it */
  dhash: string | null;
}

/** The size a picture is first brought down to, before the 9×8 hash grid. */
const FIRST_STEP = 128;

/**
 * The difference hash: the picture made grey and squeezed to 9×8 pixels, each bit saying whether a
 * pixel is brighter than its right-hand neighbour. Re-saving at another quality or resizing keeps
 * almost every bit; a different photo differs in many. Null when sharp cannot decode it.
 * Two steps, so the same picture hashes the same whatever its format: the decoded pixels are first
 * brought to at most 128 px without the JPEG decoder's own shrink-on-load (which rounds differently
 * from a PNG of the same pixels), then to 9×8 from those raw pixels.
 */
export async function differenceHash(bytes: Uint8Array): Promise<bigint | null> {
  const sharp = await loadSharp(); // a sharp that cannot load is a fault, not a picture that does not decode
  try {
    const first = await (await decodeImage(bytes))
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .resize(FIRST_STEP, FIRST_STEP, { fit: 'inside', withoutEnlargement: true, fastShrinkOnLoad: false })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { data, info } = await sharp(first.data, { raw: { width: first.info.width, height: first.info.height, channels: first.info.channels } })
      .greyscale()
      .resize(9, 8, { fit: 'fill' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const step = info.channels;
    let hash = 0n;
    for (let y = 0; y < 8; y++) {
      for (let x = 0; x < 8; x++) {
        const left = data[(y * 9 + x) * step]!;
        const right = data[(y * 9 + x + 1) * step]!;
        hash = (hash << 1n) | (left > right ? 1n : 0n);
      }
    }
    return BigInt.asIntN(64, hash);
  } catch {
    return null;
  }
}

/** How many bits two hashes differ in. */
export function hammingDistance(a: bigint, b: bigint): number {
  let x = BigInt.asUintN(64, a ^ b);
  let n = 0;
  while (x) {
    n += Number(x & 1n);
    x >>= 1n;
  }
  return n;
}

export async function fingerprintPhoto(bytes: Uint8Array): Promise<PhotoFingerprint> {
  const sha256 = new Bun.CryptoHasher('sha256').update(bytes).digest('hex');
  const dhash = await differenceHash(bytes);
  // A flat picture (all bits 0: no pixel brighter than its neighbour) has no look to compare by:
  // every blank or uniform image would match every other. Only its exact bytes count.
  return { sha256, dhash: dhash === null || dhash === 0n ? null : dhash.toString() };
}
