import type { CliIO } from './io.ts';
import type { CliSession } from './session.ts';

/** What every command is registered with: where it writes and the session it works in. */
export interface CommandDeps {
  io: CliIO;
  session: CliSession;
}

/** Runs one command line in a session; resolves with the exit code (runCli in program.ts). */
export type RunCli = (argv: string[], io: CliIO, session: CliSession) => Promise<number>;
