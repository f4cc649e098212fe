import type { Settings } from '#api/settings.ts';
import { createLocalImageStore } from './local.ts';
import type { ImageStore } from './types.ts';

export * from './types.ts';
export { createLocalImageStore } from './local.ts';

/**
 * The image store these settings choose. Only local disk (MEDIA_DIR) exists today; an
 * S3-compatible or Cloudinary store would implement ImageStore and be chosen here.
 */
export function createImageStore(settings: Settings): ImageStore {
  return createLocalImageStore(settings.mediaDir);
}
