import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AppContext } from '#api/context.ts';
import { connectPGlite, type DatabaseHandle } from '#api/db/connect.ts';
import { tryAcquireLock } from '#api/db/embedded-lock.ts';
import { openContext } from '#api/host.ts';
import { createLogger } from '#api/lib/log.ts';
import type { CliIO, OutputStream } from '#cli/io.ts';
import { runCli as runProgram } from '#cli/program.ts';
import { standaloneSession, type CliSession } from '#cli/session.ts';

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
  // restore replaces the database's files and migrate's subject is opening it: both open it themselves
  const opensItself = args[0] === 'restore' || args[0] === 'migrate';
  if (opensItself) await releaseEmbedded(fullEnv);
  const session = opensItself ? standaloneSession : testSession;
  const code = await runProgram(args, io, session(fullEnv, { writeLog: (line) => void (stderr += `${line}\n`) }));
  return { code, stdout, stderr };
}

/** Runs the real `swappoints` binary as a subprocess. */
export async function runCliProcess(args: string[], env: Record<string, string | undefined>, options: CliOptions = {}): Promise<CliResult> {
  await releaseEmbedded(env);
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

/** A kept database, as commands get it (their own close leaves it open), and how to really close it. */
interface Kept {
  database: DatabaseHandle;
  release: () => Promise<void>;
}

/**
 * Embedded databases this process keeps open between its in-process commands and `withContext`, by
 * DATA_DIR: opening one from disk starts PGlite (~0.3 CPU-s, more than most commands take). Each is
 * held under the CLI's lock, as one long command would hold it, until `releaseEmbedded`: before
 * anything else opens the directory (a subprocess, a server, a copy of it).
 */
const kept = new Map<string, Promise<Kept | null>>();

/** An existing embedded database, kept open; null when it is not ours to keep (none yet, or another holds its lock). */
function keptDatabase(dataDir: string): Promise<DatabaseHandle | null> {
  let entry = kept.get(dataDir);
  if (!entry) {
    entry = (async () => {
      // a new DATA_DIR is made by the CLI's own way of opening it, as in production
      if (!existsSync(join(dataDir, 'pgdata', 'PG_VERSION'))) return null;
      const lock = tryAcquireLock(dataDir, { role: 'cli' });
      if (!lock.acquired) return null;
      const handle = await connectPGlite(join(dataDir, 'pgdata')).catch((error) => {
        lock.release();
        throw error;
      });
      const release = async () => {
        await handle.close();
        lock.release();
      };
      // a command's own close leaves it open for the next
      return { database: { ...handle, close: async () => {} }, release };
    })();
    kept.set(dataDir, entry);
    void entry.then((found) => found ?? kept.delete(dataDir), () => kept.delete(dataDir));
  }
  return entry.then((found) => found?.database ?? null);
}

/** Closes the embedded database of `env`'s DATA_DIR if this process keeps it open (PostgreSQL: nothing to do). */
export async function releaseEmbedded(env: Record<string, string | undefined>): Promise<void> {
  const dataDir = env.DATABASE_URL || !env.DATA_DIR ? undefined : resolve(env.DATA_DIR);
  const entry = dataDir ? kept.get(dataDir) : undefined;
  if (!entry) return;
  kept.delete(dataDir!);
  await (await entry.catch(() => null))?.release();
}

/**
 * The session an in-process command (or a test's own `withContext`) runs with: the standalone one
 * (a PostgreSQL connection of its own, a new DATA_DIR, forwarding to a server that holds the lock),
 * except that an embedded database this process keeps open is used as it is.
 */
export function testSession(env: Record<string, string | undefined>, options: { writeLog?: (line: string) => void } = {}): CliSession {
  const standalone = standaloneSession(env, options);
  let opened: { ctx: AppContext; close: () => Promise<void> } | undefined;
  return {
    settings: standalone.settings,
    async context() {
      if (opened) return opened.ctx;
      const settings = standalone.settings();
      const database = settings.databaseUrl ? null : await keptDatabase(settings.dataDir);
      if (!database) return standalone.context();
      const log = createLogger(env.LOG_LEVEL ? settings.logLevel : 'warn', {}, options.writeLog, settings.logFormat);
      opened = await openContext(settings, { role: 'cli', log, database });
      return opened.ctx;
    },
    async close() {
      await opened?.close();
      opened = undefined;
      await standalone.close();
    },
  };
}
