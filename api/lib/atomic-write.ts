import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Bytes written to `target` whole or not at all: a temporary file beside it (same file system),
 * flushed to disk, then renamed over it. A failure removes the temporary file.
 * (cli/commands/atomic-file.ts does the same for text streamed by a command, with signal clean-up.)
 */
export async function writeFileAtomically(target: string, bytes: Uint8Array, mode = 0o600): Promise<void> {
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', mode);
  try {
    let offset = 0;
    while (offset < bytes.byteLength) offset += (await handle.write(bytes, offset, bytes.byteLength - offset)).bytesWritten;
    await handle.sync();
    await handle.close();
    await rename(temp, target);
  } catch (error) {
    await handle.close().catch(() => {});
    await unlink(temp).catch(() => {});
    throw error;
  }
}
