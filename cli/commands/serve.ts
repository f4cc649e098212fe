import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { readLock } from '#api/db/embedded-lock.ts';
import { CommandError, UsageError } from '../io.ts';
import type { CommandDeps } from '../program.ts';
import { startServerHost } from '../server.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * A backstop only: the edge refuses large JSON bodies and the upload route caps what it reads, both
 * with a JSON error; Bun answers a bare 413 beyond this.
 */
const MAX_REQUEST_BODY = 32 * 1024 * 1024;

export function registerServeCommand(program: Command, { io, session }: CommandDeps) {
  program
    .command('serve')
    .description('Serve SwapPoints (pages, API, images) on one port. Run `bun run build` first.')
    .option('--port <port>', 'the port (default: PORT, or 3000)')
    .addHelpText('after', '\nExample:\n  $ PORT=8080 PUBLIC_URL=https://swap.myshop.in swappoints serve')
    .action(async (options: { port?: string }) => {
      const settings = session.settings();
      const port = options.port === undefined ? settings.port : Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be a whole number from 0 to 65535');
      const entry = `${ROOT}${process.env.SWAPPOINTS_DIST_DIR ?? 'dist'}/server/index.js`;
      if (!existsSync(entry)) throw new UsageError('the pages are not built yet: run `bun run build` (or `bun run start`).');
      const holder = settings.databaseUrl ? null : readLock(settings.dataDir);
      if (holder?.role === 'server') throw new CommandError(`SwapPoints is already running (pid ${holder.pid}) on ${settings.dataDir}.`);

      const running = await startServerHost(settings);
      const { unstable_serverEntry } = (await import(/* @vite-ignore */ entry)) as { unstable_serverEntry: { fetch: (req: Request, ...rest: unknown[]) => Promise<Response> } };
      const server = Bun.serve({
        port,
        maxRequestBodySize: MAX_REQUEST_BODY,
        fetch: (request, bunServer) => unstable_serverEntry.fetch(request, bunServer),
        error: (error) => {
          running.host.ctx.log.error('unhandled server error', { error });
          return new Response('Something went wrong on our side. Please try again later.', { status: 500 });
        },
      });
      await io.stderr.write(`SwapPoints is ready on http://localhost:${server.port} (${settings.databaseUrl ? 'PostgreSQL' : `embedded database in ${settings.dataDir}`}).\n`);

      await new Promise<void>((resolve) => {
        const shutdown = () => resolve();
        process.once('SIGINT', shutdown);
        process.once('SIGTERM', shutdown);
      });
      await io.stderr.write('Stopping SwapPoints…\n');
      // Finish requests in flight (idle keep-alive connections would hold a graceful stop open), then close.
      await Promise.race([server.stop(), Bun.sleep(3_000)]);
      await server.stop(true);
      await running.stop();
    });
}
