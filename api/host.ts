import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { createApp, type App } from '#api/app.ts';
import type { AppContext } from '#api/context.ts';
import { connectPGlite, connectPostgres, type DatabaseHandle } from '#api/db/connect.ts';
import { controlSocketPath, tryAcquireLock } from '#api/db/embedded-lock.ts';
import { unpackTemplate } from '#api/db/embedded-template.ts';
import { migrateToLatest } from '#api/db/migrate.ts';
import { createImageStore } from '#api/integrations/images/index.ts';
import { createShopBackend } from '#api/integrations/shop/index.ts';
import { createCarrier, type Carrier } from '#api/integrations/carriers/index.ts';
import { createEdge, type Edge, type SocketInfo } from '#api/http/edge.ts';
import { createPageFailures, type PageFailures } from '#api/http/page-failures.ts';
import { createStaticPages, filesStamp, type PageRoutes } from '#api/http/static-pages.ts';
import { settingsLogger, type Logger } from '#api/lib/log.ts';
import { sharePageSessions, type PageSessions } from '#api/modules/auth/page-sessions.ts';
import { createMailTransport } from '#api/modules/mail/transports.ts';
import { createMailer } from '#api/modules/mail/worker.ts';
import { createMetrics } from '#api/modules/metrics/service.ts';
import { applyAdminEmails } from '#api/modules/users/service.ts';
import { startBackgroundJobs } from '#api/jobs/runner.ts';
import { ensureDataDir, type Settings } from '#api/settings.ts';

/**
 * One running SwapPoints: the database, the context every service uses, the Elysia app and the
 * edge in front of it. The server (`swappoints serve`, `waku dev`) starts one; CLI commands and
 * tests open a context without the edge.
 */
export interface Host {
  settings: Settings;
  ctx: AppContext;
  app: App;
  serve: (request: Request, socket: SocketInfo | undefined, renderPage: (request: Request) => Promise<Response>, routes?: PageRoutes) => Promise<Response>;
  /**
   * in-process API call, for server components: no HTTP hop, the same rules. `pageSessions`: the
   * session reads of the page render the call belongs to (page-sessions.ts), marked here because the
   * pages' bundle holds a copy of its own of every module it imports, whose marks the API never sees
   */
  handleApi: (request: Request, pageSessions?: PageSessions) => Promise<Response>;
  /** why a page failed, noted by the page for the edge's error screen */
  pageFailures: PageFailures;
  close(): Promise<void>;
}

export class DatabaseBusyError extends Error {
  override name = 'DatabaseBusyError';
}

export interface OpenOptions {
  log?: Logger;
  /** who takes the embedded database's lock */
  role: 'server' | 'cli' | 'test';
  /** an already open database (tests) */
  database?: DatabaseHandle;
  /** that database is migrated already (tests copy a migrated one): skip the check */
  migrated?: boolean;
  /** a carrier to use instead of the one CARRIER names (tests: a carrier that fails as an outside one can) */
  carrier?: Carrier | null;
}

/** A CLI command holds the embedded database only briefly: wait for it rather than fail. */
const WAIT_FOR_CLI_MS = 30_000;

async function takeEmbeddedLock(dataDir: string, role: 'server' | 'cli'): Promise<() => void> {
  const deadline = Date.now() + WAIT_FOR_CLI_MS;
  for (;;) {
    const lock = tryAcquireLock(dataDir, role === 'server' ? { role: 'server', socket: controlSocketPath(dataDir) } : { role: 'cli' });
    if (lock.acquired) return lock.release;
    const { holder } = lock;
    if (holder.role === 'cli' && Date.now() < deadline) {
      await Bun.sleep(200);
      continue;
    }
    throw new DatabaseBusyError(
      holder.role === 'server'
        ? `The SwapPoints server (pid ${holder.pid}) is using the embedded database in ${dataDir}.`
        : `Another swappoints command (pid ${holder.pid}) is using the embedded database in ${dataDir}; try again when it finishes.`,
    );
  }
}

/** Opens the database (embedded or PostgreSQL), migrates it, and builds the context. */
export async function openContext(settings: Settings, options: OpenOptions): Promise<{ ctx: AppContext; close: () => Promise<void> }> {
  const log = options.log ?? settingsLogger(settings);
  let releaseLock = () => {};
  let database = options.database;
  if (!database) {
    if (settings.databaseUrl) {
      database = connectPostgres(settings.databaseUrl, log, options.role === 'server' ? 10 : 3, settings.postgresTimeouts);
    } else {
      if (options.role !== 'test') releaseLock = await takeEmbeddedLock(settings.dataDir, options.role);
      ensureDataDir(settings.dataDir);
      try {
        const pgdata = join(settings.dataDir, 'pgdata');
        await unpackTemplate(pgdata);
        database = await connectPGlite(pgdata);
      } catch (error) {
        releaseLock();
        throw error;
      }
    }
  }
  try {
    const { applied } = options.migrated ? { applied: [] } : await migrateToLatest(database.db);
    if (applied.length > 0) log.info('database migrated', { applied: applied.length, latest: applied.at(-1) });
  } catch (error) {
    await database.close();
    releaseLock();
    throw error;
  }
  const mailer = createMailer(database.db, createMailTransport(settings, log), log);
  const carrier = options.carrier !== undefined ? options.carrier : createCarrier(settings, { db: database.db, log });
  const metrics = createMetrics(database, { carrier: carrier?.id ?? null });
  const ctx: AppContext = { settings, db: database.db, log, mailer, shop: createShopBackend(settings, database.db, log), images: createImageStore(settings), carrier, metrics, dumpDataDir: database.dumpDataDir };
  const handle = database;
  return {
    ctx,
    close: async () => {
      await mailer.flush();
      mailer.transport.close();
      await handle.close();
      releaseLock();
    },
  };
}

/** Whether the database answers a trivial query within two seconds. */
async function databaseReachable(ctx: AppContext): Promise<boolean> {
  const probe = sql`select 1`.execute(ctx.db).then(
    () => true,
    () => false,
  );
  return Promise.race([probe, Bun.sleep(2_000).then(() => false)]);
}

export interface StartOptions {
  dev?: boolean;
  log?: Logger;
  /** runs after migrations, before the first request (demo data) */
  onReady?: (ctx: AppContext) => Promise<void>;
  background?: boolean;
}

export async function startHost(settings: Settings, options: StartOptions = {}): Promise<Host> {
  const log = options.log ?? settingsLogger(settings);
  const { ctx, close } = await openContext(settings, { log, role: 'server' });
  try {
    await ctx.images.check();
  } catch (error) {
    await close();
    throw error;
  }
  await applyAdminEmails(ctx.db, ctx.settings.adminEmails);
  await options.onReady?.(ctx);
  const app = createApp(ctx);
  const handleApi = async (request: Request, pageSessions?: PageSessions) => app.handle(pageSessions ? sharePageSessions(request, pageSessions) : request);
  const pageFailures = createPageFailures();
  const publicDir = resolve(fileURLToPath(new URL('..', import.meta.url)), process.env.SWAPPOINTS_DIST_DIR ?? 'dist', 'public');
  // under `waku dev` every page is rendered: the sources change as they are edited
  const staticPages = options.dev ? undefined : createStaticPages({ publicDir, stamp: filesStamp([settings.termsFile, settings.privacyFile]) });
  const edge: Edge = createEdge({
    handleApp: handleApi,
    log,
    dev: options.dev ?? false,
    https: settings.publicUrl.startsWith('https:'),
    trustProxy: settings.trustProxy,
    metrics: { metrics: ctx.metrics, token: settings.metricsToken },
    pageErrors: { supportEmail: settings.supportEmail, databaseReachable: () => databaseReachable(ctx), failures: pageFailures },
    publicDir,
    staticPages,
  });
  const stopJobs = options.background === false ? () => Promise.resolve() : startBackgroundJobs(ctx);
  return {
    settings,
    ctx,
    app,
    serve: edge,
    handleApi,
    pageFailures,
    close: async () => {
      await stopJobs();
      await close();
    },
  };
}

const HOST_KEY = Symbol.for('swappoints.host');

/** The page renderer (bundled by Waku) finds the running host here, so one process holds one database. */
export function installHost(host: Host): void {
  (globalThis as Record<symbol, unknown>)[HOST_KEY] = host;
}

export function installedHost(): Host | undefined {
  return (globalThis as Record<symbol, unknown>)[HOST_KEY] as Host | undefined;
}
