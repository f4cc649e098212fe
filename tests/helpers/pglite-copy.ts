import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryFS } from '@electric-sql/pglite';

/** Where PGlite keeps its data directory in its own file system. */
const PGDATA = '/pglite/data';

/** A PGlite data directory read into memory: its directories (parents first) and its files. */
export interface DataDirImage {
  dirs: string[];
  files: { path: string; bytes: Uint8Array }[];
}

/** Reads the data directory `dir` (a closed database's) into memory, once; each copy is then made from it. */
export function readDataDir(dir: string): DataDirImage {
  const image: DataDirImage = { dirs: [], files: [] };
  const walk = (relative: string) => {
    for (const entry of readdirSync(join(dir, relative), { withFileTypes: true })) {
      const path = `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        image.dirs.push(path);
        walk(path);
      } else if (entry.isFile()) {
        image.files.push({ path, bytes: new Uint8Array(readFileSync(join(dir, path))) });
      }
    }
  };
  walk('');
  return image;
}

/**
 * An in-memory PGlite file system that starts as a copy of `image`: PGlite finds a database there and
 * starts it, no initdb. Its `loadDataDir` does the same from a tarball, but parses the tar, copies each
 * file twice and looks every parent directory up again per file: about 0.2 CPU-s a copy on this
 * machine against 0.1 for this (`bun run test:fast` makes over 80).
 */
export class CopiedDataDir extends MemoryFS {
  constructor(private readonly image: DataDirImage) {
    super();
  }

  override async initialSyncFs(): Promise<void> {
    const fs = this.pg!.Module.FS;
    fs.mkdirTree(PGDATA);
    for (const dir of this.image.dirs) fs.mkdir(PGDATA + dir);
    // the file system keeps the array it is given (canOwn): a copy of the image's, which stays as it was
    for (const { path, bytes } of this.image.files) fs.writeFile(PGDATA + path, new Uint8Array(bytes), { canOwn: true });
  }
}
