import type { PageProps } from 'waku/router';
import { NewExchangeScreen } from '#src/components/customer/new-exchange-screen.tsx';
import { pagePath, requireUser } from '#src/lib/session.server.ts';

// Waku 0.27 ranks /exchange/new and /exchange/[id] alike and may match [id] first: that page
// shows this screen too when its id is 'new'.
export default async function NewExchangePage({ path, query }: PageProps<'/exchange/new'>) {
  await requireUser(pagePath(path, query));
  return <NewExchangeScreen />;
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
