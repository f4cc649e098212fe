import { unstable_getContextData as getContextData } from 'waku/server';
import { unstable_redirect as redirect } from 'waku/router/server';
import type { UserProfile } from '../../api/modules/auth/model.ts';
import { api } from './api.server.ts';

export type { UserProfile };

/** The signed-in user, or null; asked once per page render and shared by the layout and the page. */
export function currentUser(): Promise<UserProfile | null> {
  const data = getContextData() as { user?: Promise<UserProfile | null> };
  data.user ??= api<UserProfile>('/api/auth/profile').then((r) => (r.ok ? r.data : null));
  return data.user;
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
