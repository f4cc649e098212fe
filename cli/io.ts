/**
 * Where a command writes and what it knows of its terminal. A command run by the server on the
 * CLI's behalf (see control.ts) gets streams that travel back over the control socket.
 */
export interface OutputStream {
  write(text: string): void | Promise<void>;
  isTTY: boolean;
  columns: number;
}

export interface CliIO {
  stdout: OutputStream;
  stderr: OutputStream;
  cwd: string;
}

export function processIO(): CliIO {
  const stream = (s: NodeJS.WriteStream): OutputStream => ({
    write: (text) =>
      new Promise<void>((resolve, reject) => {
        s.write(text, (error) => (error ? reject(error) : resolve()));
      }),
    isTTY: Boolean(s.isTTY),
    columns: s.columns ?? 100,
  });
  return { stdout: stream(process.stdout), stderr: stream(process.stderr), cwd: process.cwd() };
}

/** A failure the user can fix: printed as one line, exit code 2 (bad usage or input). */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A failure while doing the work: printed as one line, exit code 1. */
export class CommandError extends Error {
  override name = 'CommandError';
}

export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** A --limit value: a whole number from 1 to `max`, or a UsageError naming the range. */
export function parseLimit(value: string, max: number): number {
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > max) throw new UsageError(`--limit must be a whole number from 1 to ${max}`);
  return limit;
}
