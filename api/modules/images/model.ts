import { t } from 'elysia';

export const UploadResponse = t.Object({
  secure_url: t.String({ description: 'where the image is served: root-relative, /media/<public_id>.<ext>' }),
  public_id: t.String({ description: '40 lowercase hex characters, unguessable' }),
  url: t.String(),
  format: t.String({ description: 'jpg, png, webp, gif or avif, from the file’s bytes' }),
  resource_type: t.Literal('image'),
  bytes: t.Number(),
});

export const MediaParams = t.Object({ file: t.String() });
