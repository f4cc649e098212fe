import { fsRouter } from 'waku';
import adapter from './server-adapter.ts';
import type { Host } from '../api/host.ts';
import type { PageRoutes } from '../api/http/static-pages.ts';
import { quietRedirectLogs } from './lib/render-log.server.ts';
import { matchesRoute, type PathSegment } from './lib/route-match.ts';

/**
 * The Waku server, wrapped by SwapPoints' edge: /api, /image and /media go to the Elysia app,
 * everything else is rendered here. The host (database, API) is started by `swappoints serve`
 * before this bundle loads; under `waku dev` it is started on the first request.
 */
quietRedirectLogs();
const router = fsRouter(import.meta.glob('./**/*.{tsx,ts}', { base: './pages' }));
const waku = adapter(router);

let routePaths: Promise<PathSegment[][]> | undefined;
/**
 * The pages a signed-out visitor gets from memory (api/http/static-pages.ts): those that show
 * nothing of a visitor but their language, and the not-found page, which answers every path no
 * page or API route matches.
 */
const pageRoutes: PageRoutes = {
  prerendered: new Set(['/email-signin', '/terms', '/privacy']),
  isNotFound: async (pathname) => {
    if (waku.isPublicFile(pathname)) return false;
    routePaths ??= router.unstable_getRouterConfigs().then((configs) => configs.flatMap((c) => (c.type === 'route' || c.type === 'api' ? [c.path as PathSegment[]] : [])));
    return !(await routePaths).some((spec) => matchesRoute(spec, pathname));
  },
};
const HOST_KEY = Symbol.for('swappoints.host');
/** Set by waku.config.ts under `waku dev` only: the module whose startDevHost() starts the host in this process. */
const DEV_HOST_MODULE_KEY = Symbol.for('swappoints.devHostModule');

let starting: Promise<Host> | undefined;
async function host(): Promise<Host> {
  const running = (globalThis as Record<symbol, Host | undefined>)[HOST_KEY];
  if (running) return running;
  // Development only: `bun run build` output never reaches this line.
  starting ??= (async () => {
    const path = (globalThis as Record<symbol, string | undefined>)[DEV_HOST_MODULE_KEY];
    if (!path) throw new Error('the SwapPoints host is not running: start the pages with `swappoints serve` or `bun run dev`');
    const { startDevHost } = (await import(/* @vite-ignore */ path)) as { startDevHost: () => Promise<Host> };
    return startDevHost();
  })();
  return starting;
}

type Fetch = (request: Request, ...rest: unknown[]) => Promise<Response>;
const renderPage = waku.fetch as Fetch;

export default {
  ...waku,
  fetch: async (request: Request, ...rest: unknown[]) => {
    const running = await host();
    return running.serve(request, rest[0] as Parameters<Host['serve']>[1], (req) => renderPage(req, ...rest), pageRoutes);
  },
};
