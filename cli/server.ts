import { rmSync } from 'node:fs';
import type { Server } from 'node:net';
import { controlSocketPath } from '#api/db/embedded-lock.ts';
import { installHost, startHost, type Host } from '#api/host.ts';
import { settingsLogger } from '#api/lib/log.ts';
import { isDatabaseEmpty } from '#api/modules/demo/empty.ts';
import { serveMetricsPort } from '#api/modules/metrics/port.ts';
import type { Settings } from '#api/settings.ts';
import { serveControlSocket } from './control.ts';
import { isFirstStart, seedDemoInChild } from './demo-first-start.ts';
import type { RunCli } from './deps.ts';
import { serverSession } from './session.ts';

export interface RunningHost {
  host: Host;
  /** the port /metrics is served on beside the main one (METRICS_PORT), when set */
  metricsPort?: number;
  stop(): Promise<void>;
}

/**
 * Starts the host behind the web server: database, migrations, the demo shop on an empty
 * database (on a first start, by a process of its own: demo-first-start.ts), background jobs, and
 * (embedded database) the control socket CLI commands use.
 */
export async function startServerHost(settings: Settings, options: { runCli: RunCli; dev?: boolean }): Promise<RunningHost> {
  const log = settingsLogger(settings);
  const seededBeside = settings.demoSeed && (await isFirstStart(settings));
  if (seededBeside) await seedDemoInChild(settings, log);
  const host = await startHost(settings, {
    dev: options.dev,
    log,
    onReady: async (ctx) => {
      if (settings.demoSeed && !seededBeside && (await isDatabaseEmpty(ctx))) {
        const { seedDemo } = await import('#api/modules/demo/service.ts'); // only an empty database needs it
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
  const metricsPort = settings.metricsPort === undefined ? undefined : serveMetricsPort(host.ctx.metrics, settings.metricsHost, settings.metricsPort);
  if (metricsPort) log.info('metrics served', { url: `http://${settings.metricsHost}:${metricsPort.port}/metrics` });
  return {
    host,
    metricsPort: metricsPort?.port,
    async stop() {
      await metricsPort?.stop(true);
      if (control) {
        control.close();
        rmSync(controlSocketPath(settings.dataDir), { force: true });
      }
      await host.close();
    },
  };
}
