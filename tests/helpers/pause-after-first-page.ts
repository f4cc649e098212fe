/**
 * Preloaded into an export the test will interrupt (`bun --preload` this file): the process stops
 * itself (SIGSTOP) as soon as the second write to a file handle has returned, which for an export
 * with --out is the header and then the first page of rows. The export's own code runs unchanged;
 * only Node's file handle is watched, so the pause falls at the same point on every database and
 * every machine, however loaded. The test sees the process stopped in /proc, then kills or resumes it.
 */
import { open } from 'node:fs/promises';

const probe = await open('/dev/null', 'r');
const fileHandle = Object.getPrototypeOf(probe) as { write: (...args: unknown[]) => Promise<unknown> };
await probe.close();

const originalWrite = fileHandle.write;
const writesOf = new WeakMap<object, number>();
fileHandle.write = async function (this: object, ...args: unknown[]) {
  const result = await originalWrite.apply(this, args);
  const writes = (writesOf.get(this) ?? 0) + 1;
  writesOf.set(this, writes);
  if (writes === 2) process.kill(process.pid, 'SIGSTOP');
  return result;
};
