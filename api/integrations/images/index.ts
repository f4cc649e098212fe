import type { Settings } from '#api/settings.ts';
import { createLocalImageStore } from './local.ts';
import { createS3ImageStore } from './s3.ts';
import type { ImageStore } from './types.ts';

export * from './types.ts';
export { createLocalImageStore } from './local.ts';
export { createS3ImageStore, type S3StoreSettings } from './s3.ts';

/** The image store IMAGE_STORE chooses: local disk (MEDIA_DIR) or an S3-compatible bucket. */
export function createImageStore(settings: Settings): ImageStore {
  if (settings.imageStore === 's3') return createS3ImageStore(settings.s3!);
  return createLocalImageStore(settings.mediaDir);
}
