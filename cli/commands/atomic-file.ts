import { randomBytes } from 'node:crypto';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * A file written all at once or not at all: the text goes to a temporary file in the target's own
 * directory (so the rename cannot cross file systems), which is flushed to disk (fsync) and then
 * renamed over the target; the directory is flushed too, so the rename survives a power cut. Until
 * commit() the target is untouched: either absent or the previous complete file. A failure, abort()
 * or a SIGINT/SIGTERM/SIGHUP removes the temporary file (a SIGKILL cannot be caught: it leaves
 * `.NAME.PID.RANDOM.tmp` beside the target, never a half target).
 */
export interface AtomicFile {
  readonly tempPath: string;
  write(text: string): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export async function openAtomicFile(target: string): Promise<AtomicFile> {
  const tempPath = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle: FileHandle = await open(tempPath, 'wx', 0o666);
  let finished = false;

  // Remove the temporary file on a signal, then let the signal do what it would have done: when no
  // one else listens (a CLI run), raise it again so the process ends as it would have; inside the
  // server (a forwarded command) the server's own handlers decide.
  const onSignal = (signal: NodeJS.Signals) => {
    cleanupListeners();
    try {
      unlinkSync(tempPath);
    } catch {}
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const cleanupListeners = () => {
    for (const s of SIGNALS) process.off(s, onSignal);
  };
  for (const s of SIGNALS) process.on(s, onSignal);

  const abort = async () => {
    if (finished) return;
    finished = true;
    cleanupListeners();
    await handle.close().catch(() => {});
    await unlink(tempPath).catch(() => {});
  };

  return {
    tempPath,
    async write(text) {
      const bytes = Buffer.from(text, 'utf8');
      let offset = 0;
      while (offset < bytes.length) offset += (await handle.write(bytes, offset, bytes.length - offset)).bytesWritten;
    },
    async commit() {
      if (finished) throw new Error('the file was already closed');
      try {
        await handle.sync();
        await handle.close();
        await rename(tempPath, target);
      } catch (error) {
        await abort();
        throw error;
      }
      finished = true;
      cleanupListeners();
      await syncDirectory(dirname(target));
    },
    abort,
  };
}

/** fsync a directory so a rename in it is durable; some file systems refuse it, which is harmless. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // not supported here: the rename is still atomic, only its durability across a crash is weaker
  } finally {
    await handle?.close().catch(() => {});
  }
}
