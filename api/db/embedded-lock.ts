import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * PGlite is one process's database: two processes opening one data directory would corrupt it.
 * This lock file says who has it. The server holds it while it runs and answers CLI commands on
 * its control socket; a CLI command holds it only while it runs.
 */
export interface LockOwner {
  pid: number;
  role: 'server' | 'cli';
  socket?: string;
  startedAt: string;
}

export const lockPath = (dataDir: string) => join(dataDir, 'swappoints.lock');
export const controlSocketPath = (dataDir: string) => join(dataDir, 'swappoints.sock');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readLock(dataDir: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(lockPath(dataDir), 'utf8')) as LockOwner;
    return owner.pid === process.pid || isAlive(owner.pid) ? owner : null;
  } catch {
    return null;
  }
}

/** Takes the lock, or returns whoever holds it. A lock left by a dead process is taken over. */
export function tryAcquireLock(dataDir: string, owner: Omit<LockOwner, 'pid' | 'startedAt'>): { acquired: true; release: () => void } | { acquired: false; holder: LockOwner } {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = lockPath(dataDir);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, JSON.stringify({ ...owner, pid: process.pid, startedAt: new Date().toISOString() }), { flag: 'wx' });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release); // a process that opens the database many times (tests) keeps no listener per opening
        if (readLock(dataDir)?.pid === process.pid) rmSync(file, { force: true });
      };
      process.once('exit', release);
      return { acquired: true, release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readLock(dataDir);
      if (holder) return { acquired: false, holder };
      rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`Could not take the database lock ${file}; remove it if no swappoints process is running.`);
}
