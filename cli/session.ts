import type { AppContext } from '#api/context.ts';
import { controlSocketPath, readLock } from '#api/db/embedded-lock.ts';
import { DatabaseBusyError, openContext } from '#api/host.ts';
import { createLogger } from '#api/lib/log.ts';
import { loadSettings, type Settings } from '#api/settings.ts';
import { CommandError } from './io.ts';

/** Thrown when the server holds the embedded database: the whole command is run by the server instead. */
export class ForwardToServer extends Error {
  constructor(readonly socketPath: string) {
    super('forward to server');
  }
}

export interface CliSession {
  settings(): Settings;
  /** the context commands work with; opened on first use */
  context(): Promise<AppContext>;
  close(): Promise<void>;
}

/** A command run from a terminal: its own database connection, or the running server's via forwarding. */
export function standaloneSession(
  env: Record<string, string | undefined> = process.env,
  /** where log lines go (default stderr); a command run in-process by the tests keeps them with its output */
  options: { writeLog?: (line: string) => void } = {},
): CliSession {
  let settings: Settings | undefined;
  let opened: { ctx: AppContext; close: () => Promise<void> } | undefined;
  const getSettings = () => (settings ??= loadSettings(env));
  return {
    settings: getSettings,
    async context() {
      if (opened) return opened.ctx;
      const s = getSettings();
      const log = createLogger(env.LOG_LEVEL ? s.logLevel : 'warn', {}, options.writeLog, s.logFormat);
      try {
        opened = await openContext(s, { role: 'cli', log });
        return opened.ctx;
      } catch (error) {
        if (!(error instanceof DatabaseBusyError)) throw error;
        const holder = readLock(s.dataDir);
        if (holder?.role === 'server') throw new ForwardToServer(holder.socket ?? controlSocketPath(s.dataDir));
        throw new CommandError(error.message);
      }
    },
    async close() {
      await opened?.close();
      opened = undefined;
    },
  };
}

/** A command the server runs for a forwarded CLI call: the server's own context. */
export function serverSession(settings: Settings, ctx: AppContext): CliSession {
  return { settings: () => settings, context: async () => ctx, close: async () => {} };
}
