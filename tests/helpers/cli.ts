import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIO, OutputStream } from '#cli/io.ts';
import { runCli as runProgram } from '#cli/program.ts';
import { standaloneSession } from '#cli/session.ts';

export const ROOT = join(import.meta.dir, '..', '..');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  /** bytes for the command's stdin (runs it as a subprocess) */
  stdin?: string;
  /** the real binary in a process of its own, as an operator runs it (the default for `serve`) */
  subprocess?: boolean;
}

/**
 * Runs a `swappoints` command line and gives its exit code, stdout and stderr. By default the
 * commander program runs in this process (as `cli/index.ts` runs it, with its own output streams,
 * settings from `env` and log lines on its stderr): a subprocess costs a Bun start each. `serve`,
 * and any call with `subprocess: true` or stdin, runs the real binary as a subprocess.
 */
export async function runCli(args: string[], env: Record<string, string | undefined> = {}, options: CliOptions = {}): Promise<CliResult> {
  const fullEnv = { ...process.env, LOG_LEVEL: 'warn', ...env };
  if (options.subprocess || options.stdin !== undefined || args[0] === 'serve') return runCliProcess(args, fullEnv, options);
  let stdout = '';
  let stderr = '';
  const stream = (write: (text: string) => void): OutputStream => ({ write, isTTY: false, columns: 100 });
  const io: CliIO = { stdout: stream((text) => void (stdout += text)), stderr: stream((text) => void (stderr += text)), cwd: options.cwd ?? ROOT };
  const code = await runProgram(args, io, standaloneSession(fullEnv, { writeLog: (line) => void (stderr += `${line}\n`) }));
  return { code, stdout, stderr };
}

/** Runs the real `swappoints` binary as a subprocess. */
export async function runCliProcess(args: string[], env: Record<string, string | undefined>, options: CliOptions = {}): Promise<CliResult> {
  const proc = Bun.spawn(['bun', join(ROOT, 'cli/index.ts'), ...args], {
    cwd: options.cwd ?? ROOT,
    env,
    stdout: 'pipe',
    stderr: 'pipe',
    stdin: options.stdin === undefined ? 'ignore' : new TextEncoder().encode(options.stdin),
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** A fresh DATA_DIR for an embedded database; pass as env DATA_DIR. */
export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'swappoints-cli-'));
}
