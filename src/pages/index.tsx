import { unstable_redirect as redirect } from 'waku/router/server';
import { currentUser } from '#src/lib/session.server.ts';

/** `/`: the dashboard when signed in, otherwise the sign-in page. */
export default async function Home() {
  redirect((await currentUser()) ? '/dashboard' : '/email-signin');
  return null;
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
