import { Elysia } from 'elysia';
import type { AppContext } from '#api/context.ts';
import { contentTypeOfExtension, IMAGE_TYPES, imageKey, PUBLIC_ID } from '#api/integrations/images/index.ts';
import { notFound } from '#api/lib/errors.ts';
import { errorAnswer } from '#api/lib/openapi.ts';
import { ErrorBody } from '#api/lib/schema.ts';
import type { AuthPlugin } from '#api/modules/auth/plugin.ts';
import { MediaParams, UploadResponse } from './model.ts';
import { VARIANT_WIDTHS, type VariantWidth } from './rules.ts';
import { imageStoreFailed } from './service.ts';
import { handleUpload } from './upload.ts';
import { readVariant } from './variants.ts';

const NO_SUCH_IMAGE = 'No such image.';
const MEDIA_FILE = new RegExp(`^(${PUBLIC_ID.source.slice(1, -1)})\\.([a-z]+)$`);
const VARIANT_FILE = new RegExp(`^(${PUBLIC_ID.source.slice(1, -1)})\\.w(\\d{2,4})\\.webp$`);
const isVariantWidth = (n: number): n is VariantWidth => (VARIANT_WIDTHS as readonly number[]).includes(n);

/**
 * The embedded image service, mounted beside /api: `POST /image/upload` (signed-in users, the
 * Cloudinary-compatible contract) and `GET /media/<public_id>.<ext>` (no auth: the ids are
 * unguessable capabilities, as Cloudinary's URLs are).
 */
export function imageRoutes(ctx: AppContext, auth: AuthPlugin) {
  return new Elysia({ tags: ['Images'] })
    .use(auth)
    .post(
      '/image/upload',
      async ({ user, request }) => {
        const saved = await handleUpload(ctx, user.id, request);
        return {
          secure_url: saved.url,
          public_id: saved.publicId,
          url: saved.url,
          format: IMAGE_TYPES[saved.contentType as keyof typeof IMAGE_TYPES],
          resource_type: 'image' as const,
          bytes: saved.byteSize,
        };
      },
      {
        auth: true,
        // The body is read by handleUpload after auth, with a size cap: never by the framework.
        parse: 'none',
        response: { 200: UploadResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 429: ErrorBody, 503: ErrorBody },
        detail: {
          summary: 'Upload one product image (multipart: file, upload_preset, cloud_name)',
          description: 'JPEG, PNG, WebP, GIF or AVIF, judged by the bytes and decoded (415 when it does not decode); stored upright and without EXIF, XMP or IPTC metadata; 5 MB at most; 20 unattached uploads per user at most.',
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  required: ['file'],
                  properties: {
                    file: { type: 'string', format: 'binary', description: 'the image' },
                    upload_preset: { type: 'string', description: 'accepted and ignored (Cloudinary compatibility)' },
                    cloud_name: { type: 'string', description: 'accepted and ignored (Cloudinary compatibility)' },
                  },
                },
              },
            },
          },
        },
      },
    )
    .get(
      '/media/:file',
      async ({ params, request }) => {
        const variant = VARIANT_FILE.exec(params.file);
        if (variant) {
          const width = Number(variant[2]);
          if (!isVariantWidth(width)) throw notFound(NO_SUCH_IMAGE);
          const found = await readVariant(ctx, variant[1]!, width).catch((error) => {
            throw imageStoreFailed(ctx, 'get variant', error);
          });
          if (!found) throw notFound(NO_SUCH_IMAGE);
          // A variant never changes.
          const headers: Record<string, string> = { 'content-type': found.contentType, 'x-content-type-options': 'nosniff', 'cache-control': 'public, max-age=31536000, immutable' };
          if (found.byteSize >= 0) headers['content-length'] = String(found.byteSize);
          return new Response(found.body, { status: 200, headers });
        }
        const match = MEDIA_FILE.exec(params.file);
        const wanted = match ? contentTypeOfExtension(match[2]!) : undefined;
        if (!match || !wanted) throw notFound(NO_SUCH_IMAGE);
        const publicId = match[1]!;
        // The key holds the extension, so another type for the same id finds nothing: one URL per image.
        const image = await ctx.images.get(imageKey(publicId, wanted)).catch((error) => {
          throw imageStoreFailed(ctx, 'get', error);
        });
        if (!image) throw notFound(NO_SUCH_IMAGE);
        const headers: Record<string, string> = {
          'content-type': image.contentType,
          'x-content-type-options': 'nosniff',
          // Public ids are never reused, so the bytes behind a URL never change.
          'cache-control': 'public, max-age=31536000, immutable',
          'content-disposition': `inline; filename="${params.file}"`,
          etag: `"${publicId}"`,
        };
        if (request.headers.get('if-none-match')?.includes(`"${publicId}"`)) {
          await image.body.cancel().catch(() => {});
          return new Response(null, { status: 304, headers });
        }
        if (image.byteSize >= 0) headers['content-length'] = String(image.byteSize);
        return new Response(image.body, { status: 200, headers });
      },
      {
        params: MediaParams,
        detail: {
          summary: 'A stored image (public, cacheable forever)',
          description: '`<public_id>.<ext>` is the upload; `<public_id>.w<width>.webp` a thumbnail made at upload, or on first request for an older image (404 when the image cannot be resized: an original is never served under a thumbnail\'s name). Every stored image is decoded and written again, without EXIF, XMP or IPTC metadata.',
          responses: {
            200: { description: 'The image bytes.', content: { 'image/*': { schema: { type: 'string', format: 'binary' } } } },
            304: { description: 'Not modified since the ETag the client holds.' },
            404: errorAnswer('404'),
          },
        },
      },
    );
}
