import { unstable_getContext as getContext, unstable_getContextData as getContextData } from 'waku/server';
import { PROFILE_LOAD_FAILED } from '../../api/lib/error-screen.ts';
import { unstable_redirect as redirect } from 'waku/router/server';
import type { ProfileDetails } from '../../api/modules/auth/model.ts';
import { api } from './api.server.ts';
import { host } from './host.server.ts';

/** GET /api/auth/profile: who is signed in, with their phone, WhatsApp choice and language. */
export type UserProfile = ProfileDetails;

/** The signed-in user, or null; asked once per page render and shared by the layout and the page. */
export function currentUser(): Promise<UserProfile | null> {
  const data = getContextData() as { user?: Promise<UserProfile | null> };
  data.user ??= api<UserProfile>('/api/auth/profile').then(
    (r) => {
      if (r.ok) return r.data;
      // only a 401 means the session ended; any other failure keeps it and fails the page
      if (r.status === 401) return null;
      return profileFailed(`${r.status} ${r.error ?? ''}`);
    },
    (error: unknown) => profileFailed(String(error)),
  );
  return data.user;
}

/** The page fails (so nothing signs out) and the edge's error screen says §8's text. */
function profileFailed(reason: string): never {
  const requestId = getContext().req.headers.get('x-request-id');
  if (requestId) host().pageFailures.note(requestId, PROFILE_LOAD_FAILED);
  throw new Error(`profile could not be loaded: ${reason}`);
}

const signInUrl = (returnTo: string) => `/email-signin?next=${encodeURIComponent(returnTo)}`;

/** Signed-in guard: no user → /email-signin, passing along where they were going. */
export async function requireUser(returnTo: string): Promise<UserProfile> {
  const user = await currentUser();
  if (!user) redirect(signInUrl(returnTo));
  return user;
}

/** Admin guard: not signed in → /email-signin; signed in but not an admin → /dashboard. */
export async function requireAdmin(returnTo: string): Promise<UserProfile> {
  const user = await requireUser(returnTo);
  if (!user.isAdmin) redirect('/dashboard');
  return user;
}

/** The path and query a page was opened with, for `requireUser`. */
export function pagePath(path: string, query?: string): string {
  return query ? `${path}?${query}` : path;
}
