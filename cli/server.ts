import { rmSync } from 'node:fs';
import type { Server } from 'node:net';
import { controlSocketPath } from '#api/db/embedded-lock.ts';
import { installHost, startHost, type Host } from '#api/host.ts';
import { createLogger } from '#api/lib/log.ts';
import { isDatabaseEmpty, seedDemo } from '#api/modules/demo/service.ts';
import type { Settings } from '#api/settings.ts';
import { serveControlSocket } from './control.ts';
import type { RunCli } from './deps.ts';
import { serverSession } from './session.ts';

export interface RunningHost {
  host: Host;
  stop(): Promise<void>;
}

/**
 * Starts the host behind the web server: database, migrations, the demo shop on an empty
 * database, background jobs, and (embedded database) the control socket CLI commands use.
 */
export async function startServerHost(settings: Settings, options: { runCli: RunCli; dev?: boolean }): Promise<RunningHost> {
  const log = createLogger(settings.logLevel);
  const host = await startHost(settings, {
    dev: options.dev,
    log,
    onReady: async (ctx) => {
      if (settings.demoSeed && (await isDatabaseEmpty(ctx))) {
        const report = await seedDemo(ctx);
        log.info('demo shop loaded into the empty database', { ...report });
      }
    },
  });
  installHost(host);
  let control: Server | undefined;
  if (!settings.databaseUrl) {
    const path = controlSocketPath(settings.dataDir);
    control = await serveControlSocket(path, (argv, io) => options.runCli(argv, io, serverSession(settings, host.ctx)));
  }
  return {
    host,
    async stop() {
      if (control) {
        control.close();
        rmSync(controlSocketPath(settings.dataDir), { force: true });
      }
      await host.close();
    },
  };
}
