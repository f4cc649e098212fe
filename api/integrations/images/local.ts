import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { IMAGE_TYPES, isPublicId, type ImageContentType, type ImageStore, type StoredImage } from './types.ts';

const ENTRIES = Object.entries(IMAGE_TYPES) as [ImageContentType, string][];

/**
 * Images on local disk under `mediaDir`, as `<mediaDir>/<first two id chars>/<public id>.<ext>`.
 * Every path is built from a public id that matched PUBLIC_ID (40 lowercase hex characters) and an
 * extension from IMAGE_TYPES, never from anything the client sent, so no path can leave mediaDir.
 * Files are written to a temporary name and renamed, so a reader never sees half a file.
 */
export function createLocalImageStore(mediaDir: string): ImageStore {
  const dirOf = (publicId: string) => join(mediaDir, publicId.slice(0, 2));
  const pathOf = (publicId: string, ext: string) => join(dirOf(publicId), `${publicId}.${ext}`);

  const find = async (publicId: string): Promise<{ path: string; contentType: ImageContentType; size: number } | null> => {
    for (const [contentType, ext] of ENTRIES) {
      const path = pathOf(publicId, ext);
      try {
        const info = await stat(path);
        if (info.isFile()) return { path, contentType, size: info.size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    return null;
  };

  return {
    kind: 'local',
    async put(publicId, bytes, contentType) {
      if (!isPublicId(publicId)) throw new Error('image store: malformed public id');
      const ext = IMAGE_TYPES[contentType];
      if (!ext) throw new Error(`image store: unsupported content type ${contentType}`);
      await mkdir(dirOf(publicId), { recursive: true });
      const final = pathOf(publicId, ext);
      const temporary = `${final}.${process.pid}.${Date.now()}.tmp`;
      try {
        await Bun.write(temporary, bytes);
        await rename(temporary, final);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
    async read(publicId): Promise<StoredImage | null> {
      if (!isPublicId(publicId)) return null;
      const found = await find(publicId);
      if (!found) return null;
      return { body: Bun.file(found.path).stream(), contentType: found.contentType, byteSize: found.size };
    },
    async remove(publicIds) {
      for (const publicId of publicIds) {
        if (!isPublicId(publicId)) continue;
        await Promise.all(ENTRIES.map(([, ext]) => rm(pathOf(publicId, ext), { force: true })));
      }
    },
  };
}
