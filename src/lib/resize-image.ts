import { MAX_IMAGE_BYTES } from '#api/modules/images/rules.ts';

/** Photos are sent at most this many pixels on their long side (a phone's 12 MP photo is 4032). */
export const MAX_LONG_SIDE = 2560;
const QUALITIES = [0.85, 0.75, 0.6];

async function encode(bitmap: ImageBitmap, width: number, height: number, quality: number): Promise<Blob | null> {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) return null;
  // JPEG has no transparency: a PNG's transparent parts become white, not black.
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  context.imageSmoothingQuality = 'high';
  context.drawImage(bitmap, 0, 0, width, height);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
}

/**
 * The photo as it should be uploaded: unchanged when it is within the size limit and 2,560 px,
 * otherwise scaled down (EXIF orientation applied) and re-encoded as JPEG until it fits. A file
 * the browser cannot decode (HEIC in most browsers, not an image) is returned as it is, for the
 * usual checks to judge.
 */
export async function prepareImage(file: File): Promise<File> {
  if (!file.type.startsWith('image/')) return file;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return file;
  }
  try {
    const long = Math.max(bitmap.width, bitmap.height);
    if (file.size <= MAX_IMAGE_BYTES && long <= MAX_LONG_SIDE) return file;
    let scale = Math.min(1, MAX_LONG_SIDE / long);
    for (let attempt = 0; attempt < 4; attempt++) {
      const width = Math.max(1, Math.round(bitmap.width * scale));
      const height = Math.max(1, Math.round(bitmap.height * scale));
      for (const quality of QUALITIES) {
        const blob = await encode(bitmap, width, height, quality);
        if (!blob) return file;
        if (blob.size <= MAX_IMAGE_BYTES) return new File([blob], `${file.name.replace(/\.[^.]*$/, '') || 'photo'}.jpg`, { type: 'image/jpeg', lastModified: file.lastModified });
      }
      scale *= 0.75;
    }
    return file;
  } finally {
    bitmap.close();
  }
}
