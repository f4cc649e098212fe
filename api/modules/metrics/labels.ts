/**
 * Metric labels hold templates, never raw paths: an id, a token or an email in a label would make
 * one series per value. The API's template is Elysia's own route (recorded by the app for each
 * request it matched); a page's is its file in src/pages; anything else is one of a few fixed names.
 */

const apiRoutes = new WeakMap<Request, string>();

/** Called by the app (api/app.ts) for every request that matched a route. */
export function noteRoute(request: Request, route: string): void {
  apiRoutes.set(request, route);
}

/** The pages of src/pages, as paths with their dynamic segments. */
const PAGES = [
  '/', '/admin', '/admin/analytics', '/admin/exchange/[id]', '/admin/valuation', '/admin/webhooks', '/dashboard',
  '/email-signin', '/exchange', '/exchange/[id]', '/exchange/new', '/verify-email',
];
const PAGE_PATTERNS = PAGES.map((page) => ({
  page,
  pattern: new RegExp(`^${page.replace(/\[\w+\]/g, '[^/]+')}/?$`),
}));

/** A page path's template ('/exchange/12' → '/exchange/[id]'), or undefined for no page. */
export function pageTemplate(pathname: string): string | undefined {
  for (const { page, pattern } of PAGE_PATTERNS) if (pattern.test(pathname)) return page;
  return undefined;
}

/** The route label of one request: an API route template, a page, a fixed group, or 'unmatched'. */
export function routeLabel(request: Request, pathname: string, toApp: boolean): string {
  if (toApp) return apiRoutes.get(request) ?? 'unmatched';
  if (pathname.startsWith('/assets/')) return '/assets/*';
  if (pathname.startsWith('/RSC/')) {
    // a client navigation's server-component payload: /RSC/R/exchange/12.txt is the page /exchange/[id]
    const page = pageTemplate(pathname.replace(/^\/RSC\/R/, '').replace(/\.txt$/, '').replace(/^\/?_?$/, '/').replace(/\/index$/, '') || '/');
    return page ? `RSC ${page}` : 'RSC';
  }
  return pageTemplate(pathname) ?? 'unmatched';
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Methods are a fixed set too: anything else a client invents is 'other'. */
export const methodLabel = (method: string) => (METHODS.has(method) ? method : 'other');
