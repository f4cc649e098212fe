import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { unstable_constants as constants, unstable_createServerEntryAdapter as createServerEntryAdapter, unstable_honoMiddleware as honoMiddleware } from 'waku/internals';

/**
 * Waku's Bun adapter (`waku/adapters/bun`) without its static-file lookup on every request. That
 * adapter asks the disk whether each request's path is a file in `dist/public` (a `stat` and an
 * `exists`, before any page renders): 5 % of a data page's CPU. Here the built public folder is
 * listed once, when the server starts (a build never changes under a running server), and a page's
 * path goes straight to Waku. Files are answered as `Bun.file` with the type of their extension;
 * the edge adds caching and serves the build's precompressed copies (api/http/compression.ts).
 *
 * Waku's middleware is Hono's; the two it needs here take only the request and set the response,
 * so they run on a minimal context instead of a Hono app.
 */
const { DIST_PUBLIC } = constants;
const { contextMiddleware, rscMiddleware } = honoMiddleware;

type Middleware = (c: never, next: () => Promise<void>) => Promise<void> | void;
interface MinimalContext {
  req: { raw: Request };
  res: Response | undefined;
}

/** Every file under `root`, as the URL path that names it ('/favicon.svg', '/assets/x.js'). */
function listFiles(root: string): Map<string, string> {
  const files = new Map<string, string>();
  if (!existsSync(root)) return files;
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files.set(`/${path.relative(root, file).split(path.sep).join('/')}`, file);
  }
  return files;
}

const adapter = createServerEntryAdapter(({ processRequest, processBuild, config, isBuild, notFoundHtml }) => {
  // under `waku dev` Vite serves the public files itself
  const publicFiles = isBuild ? listFiles(path.join(config.distDir, DIST_PUBLIC)) : new Map<string, string>();
  const basePrefix = config.basePath.slice(0, -1); // '/' → '', '/shop/' → '/shop'
  const run = (middleware: Middleware, c: MinimalContext, next: () => Promise<void>) => middleware(c as never, next);
  const handleRsc = rscMiddleware({ processRequest }) as unknown as Middleware;
  const withContext = contextMiddleware() as unknown as Middleware;

  const publicFile = (pathname: string) => (pathname.startsWith(basePrefix) ? publicFiles.get(pathname.slice(basePrefix.length)) : undefined);

  const fetch = async (request: Request): Promise<Response> => {
    if (request.method === 'GET' || request.method === 'HEAD') {
      const file = publicFile(new URL(request.url).pathname);
      if (file) return new Response(Bun.file(file));
    }
    const c: MinimalContext = { req: { raw: request }, res: undefined };
    await run(withContext, c, () => Promise.resolve(run(handleRsc, c, async () => {})));
    if (c.res) return c.res;
    return notFoundHtml
      ? new Response(notFoundHtml, { status: 404, headers: { 'content-type': 'text/html; charset=UTF-8' } })
      : new Response('404 Not Found', { status: 404, headers: { 'content-type': 'text/plain; charset=UTF-8' } });
  };

  return {
    fetch,
    /** whether the path names a file of the built public folder (answered as that file, never as a page) */
    isPublicFile: (pathname: string) => publicFile(pathname) !== undefined,
    build: processBuild,
    buildOptions: { distDir: config.distDir },
    buildEnhancers: ['waku/adapters/bun-build-enhancer'],
  };
});

/** The adapter, typed with what it adds to Waku's server entry. */
export default adapter as (...args: Parameters<typeof adapter>) => ReturnType<typeof adapter> & { isPublicFile(pathname: string): boolean };
