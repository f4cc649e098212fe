import type { CurrentUser } from './sessions.ts';

/**
 * The session checks of one page render. A page reads the API in process several times while it
 * renders (the layout's profile, the page's data, the terms banner), in waves, each call checked as
 * any API call is; checks that run at the same moment already share one read (plugin.ts), and the
 * calls of one render carry one of these (src/lib/api.server.ts) so that the later waves reuse it
 * too: one read of the session a page instead of one a wave. Only a request made in this process can
 * carry it (it is held beside the Request object, never read from a header), and it lives as long as
 * the render that made it.
 */
export type PageSessions = Map<string, Promise<CurrentUser | null>>;

const byRequest = new WeakMap<Request, PageSessions>();

/** Marks an in-process API request as one of a page render's calls, sharing `sessions` with the others. */
export function sharePageSessions(request: Request, sessions: PageSessions): Request {
  byRequest.set(request, sessions);
  return request;
}

export const pageSessionsOf = (request: Request): PageSessions | undefined => byRequest.get(request);
