import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(import.meta.dir, '..', '..');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real `swappoints` binary as a subprocess. */
export async function runCli(args: string[], env: Record<string, string | undefined> = {}, options: { cwd?: string; stdin?: string } = {}): Promise<CliResult> {
  const proc = Bun.spawn(['bun', join(ROOT, 'cli/index.ts'), ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
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
