import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Server } from 'bun';
import type { Command } from 'commander';
import { readLock } from '#api/db/embedded-lock.ts';
import { settingsLogger, type Logger } from '#api/lib/log.ts';
import { withPort, type Settings } from '#api/settings.ts';
import { CommandError, UsageError } from '../io.ts';
import type { CommandDeps, RunCli } from '../deps.ts';
import { stopWithin } from '../shutdown.ts';
import { startServerHost, type RunningHost } from '../server.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * A backstop only: the edge refuses large JSON bodies and the upload route caps what it reads, both
 * with a JSON error; Bun answers a bare 413 beyond this.
 */
const MAX_REQUEST_BODY = 32 * 1024 * 1024;

/** Resolves once no request is in flight (a streamed response counts until its last byte), or after `waitMs`. */
async function whenIdle(server: { readonly pendingRequests: number }, waitMs: number): Promise<void> {
  const until = Date.now() + waitMs;
  while (server.pendingRequests > 0 && Date.now() < until) await Bun.sleep(10);
}

/** The built pages' server entry (`bun run build`; SWAPPOINTS_DIST_DIR picks another build). */
const builtEntry = () => `${ROOT}${process.env.SWAPPOINTS_DIST_DIR ?? 'dist'}/server/index.js`;

type Entry = { fetch: (req: Request, ...rest: unknown[]) => Promise<Response> };

export interface Serving {
  server: Server<unknown>;
  /** the settings with the port really bound (PORT=0 asks the system for one) */
  settings: Settings;
  running: RunningHost;
}

/**
 * Binds the port, starts the host and loads the built pages: what `swappoints serve` runs before it
 * waits for a signal (and what the browser tests run in their own process: tests/helpers/server.ts).
 * Binding first lets `PORT=0` get a free port from the system (tests run many servers side by side)
 * and the links mailed out name the port really served; requests wait until the host is up.
 */
export async function startServing(base: Settings, options: { port: number; publicUrlSetting: string | undefined; runCli: RunCli; log: Logger }): Promise<Serving> {
  const started = Promise.withResolvers<Entry>();
  started.promise.catch(() => undefined);
  const server = Bun.serve({
    port: options.port,
    maxRequestBodySize: MAX_REQUEST_BODY,
    fetch: async (request, bunServer) => (await started.promise).fetch(request, bunServer),
    error: (error) => {
      options.log.error('unhandled server error', { error });
      return new Response('Something went wrong on our side. Please try again later.', { status: 500 });
    },
  });
  const settings = withPort(base, server.port!, options.publicUrlSetting);
  let running: RunningHost | undefined;
  try {
    running = await startServerHost(settings, { runCli: options.runCli });
    const { unstable_serverEntry } = (await import(/* @vite-ignore */ builtEntry())) as { unstable_serverEntry: Entry };
    started.resolve(unstable_serverEntry);
    return { server, settings, running };
  } catch (error) {
    started.reject(error);
    await server.stop(true);
    await running?.stop();
    throw error;
  }
}

/** `runCli` runs the commands the CLI sends to this server over the control socket (embedded database). */
export function registerServeCommand(program: Command, { io, session }: CommandDeps, runCli: RunCli) {
  program
    .command('serve')
    .description('Serve SwapPoints (pages, API, images) on one port. Run `bun run build` first.')
    .option('--port <port>', 'the port (default: PORT, or 3000)')
    .addHelpText('after', '\nExample:\n  $ PORT=8080 PUBLIC_URL=https://swap.myshop.in swappoints serve')
    .action(async (options: { port?: string }) => {
      const port = options.port === undefined ? session.settings().port : Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be a whole number from 0 to 65535');
      if (!existsSync(builtEntry())) throw new UsageError('the pages are not built yet: run `bun run build` (or `bun run start`).');
      const holder = session.settings().databaseUrl ? null : readLock(session.settings().dataDir);
      if (holder?.role === 'server') throw new CommandError(`SwapPoints is already running (pid ${holder.pid}) on ${session.settings().dataDir}.`);

      const log = settingsLogger(session.settings());
      // with LOG_FORMAT=json every line on stderr is a JSON object, these two included
      const announce = async (line: string) => (session.settings().logFormat === 'json' ? log.info(line) : io.stderr.write(`${line}\n`));
      const { server, settings, running } = await startServing(session.settings(), { port, publicUrlSetting: process.env.PUBLIC_URL, runCli, log });
      await announce(`SwapPoints is ready on ${settings.publicUrl} (listening on port ${server.port}, ${settings.databaseUrl ? 'PostgreSQL' : `embedded database in ${settings.dataDir}`}).`);
      // The last step of start-up: what migrations, the demo shop and loading the pages left behind is
      // garbage now. One full collection returns it at once rather than when the heap next grows
      // (about 10 MB of idle RSS, bench:memory).
      Bun.gc(true);

      await new Promise<void>((resolve) => {
        const shutdown = () => resolve();
        process.once('SIGINT', shutdown);
        process.once('SIGTERM', shutdown);
      });
      await announce('Stopping SwapPoints…');
      const timeoutMs = settings.shutdownTimeoutMs;
      const done = await stopWithin(timeoutMs, [
        // Take no new connections and finish the requests in flight, then close what is left at once:
        // idle keep-alive connections would otherwise hold a graceful stop open.
        (left) => Promise.race([server.stop(), whenIdle(server, left)]),
        () => server.stop(true),
        () => running.stop(),
      ]);
      if (!done) {
        await io.stderr.write(`SwapPoints did not stop within SHUTDOWN_TIMEOUT_MS (${timeoutMs} ms); exiting with work still running.\n`);
        process.exit(1);
      }
      // Everything the server owns is finished or closed. What may still run is cache work that dies
      // with the process (a brotli copy of a stored page being compressed): waiting for it would keep
      // a stopped server alive for no one.
      process.exit(0);
    });
}
