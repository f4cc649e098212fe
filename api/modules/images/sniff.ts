import type { ImageContentType } from '#api/integrations/images/index.ts';

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/**
 * The image type the bytes really are, read from their magic numbers, or null. The client's
 * declared type and file name are never consulted. SVG is not accepted: it can carry scripts.
 */
export function sniffImageType(bytes: Uint8Array): ImageContentType | null {
  // JPEG: SOI marker then the start of another marker
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  // PNG: the 8-byte signature, then the IHDR chunk
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) && ascii(bytes, 12, 16) === 'IHDR') return 'image/png';
  // GIF87a / GIF89a
  if (bytes.length >= 10 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a')) return 'image/gif';
  // WebP: RIFF....WEBP then a VP8/VP8L/VP8X chunk
  if (bytes.length >= 16 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP' && /^VP8[ LX]$/.test(ascii(bytes, 12, 16))) return 'image/webp';
  // AVIF: an ISO BMFF 'ftyp' box whose major or compatible brands name avif or avis
  if (bytes.length >= 16 && ascii(bytes, 4, 8) === 'ftyp') {
    const boxSize = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
    if (boxSize >= 16 && boxSize <= bytes.length && boxSize <= 4096) {
      for (let at = 8; at + 4 <= boxSize; at += 4) {
        if (at === 12) continue; // minor version, not a brand
        const brand = ascii(bytes, at, at + 4);
        if (brand === 'avif' || brand === 'avis') return 'image/avif';
      }
    }
  }
  return null;
}
