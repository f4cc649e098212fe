import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { contentTypeOfKey, isStoreKey, type ImageStore, type StoredKey, type StoredObject } from './types.ts';

/**
 * Images on local disk under `mediaDir`, each store key a relative path
 * (`<mediaDir>/<first two id chars>/<public id>.<ext>`). Only keys that match STORE_KEY become paths,
 * so no path can leave mediaDir. Files are written to a temporary name and renamed, so a reader never
 * sees half a file.
 */
export function createLocalImageStore(mediaDir: string): ImageStore {
  const pathOf = (key: string) => join(mediaDir, key);

  const sizeOf = async (key: string): Promise<number | null> => {
    try {
      const info = await stat(pathOf(key));
      return info.isFile() ? info.size : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  };

  const namesIn = async (dir: string): Promise<string[]> => {
    try {
      return await readdir(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  };

  return {
    kind: 'local',
    async put(key, bytes) {
      if (!isStoreKey(key)) throw new Error('image store: malformed key');
      const final = pathOf(key);
      await mkdir(join(mediaDir, key.slice(0, 2)), { recursive: true });
      const temporary = `${final}.${process.pid}.${Date.now()}.tmp`;
      try {
        await Bun.write(temporary, bytes);
        await rename(temporary, final);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
    async get(key): Promise<StoredObject | null> {
      if (!isStoreKey(key)) return null;
      const byteSize = await sizeOf(key);
      if (byteSize === null) return null;
      return { body: Bun.file(pathOf(key)).stream(), contentType: contentTypeOfKey(key)!, byteSize };
    },
    async exists(key) {
      return isStoreKey(key) && (await sizeOf(key)) !== null;
    },
    async delete(keys) {
      await Promise.all(keys.filter(isStoreKey).map((key) => rm(pathOf(key), { force: true })));
    },
    async *list(prefix = ''): AsyncIterable<StoredKey> {
      // Keys are `<dir>/<name>`: only the directories the prefix allows are read.
      const dirs = (prefix.length >= 2 ? [prefix.slice(0, 2)] : await namesIn(mediaDir)).filter((d) => /^[0-9a-f]{2}$/.test(d) && d.startsWith(prefix.slice(0, 2)));
      for (const dir of dirs.sort()) {
        for (const name of (await namesIn(join(mediaDir, dir))).sort()) {
          const key = `${dir}/${name}`;
          if (!key.startsWith(prefix) || !isStoreKey(key)) continue;
          const byteSize = await sizeOf(key);
          if (byteSize !== null) yield { key, byteSize };
        }
      }
    },
    async check() {
      await mkdir(mediaDir, { recursive: true });
      const info = await stat(mediaDir);
      if (!info.isDirectory()) throw new Error(`MEDIA_DIR ${mediaDir} is not a directory`);
    },
  };
}
