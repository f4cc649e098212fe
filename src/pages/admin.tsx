import type { PageProps } from 'waku/router';
import { pagePath, requireAdmin } from '#src/lib/session.server.ts';

export default async function AdminPage({ path, query }: PageProps<'/admin'>) {
  await requireAdmin(pagePath(path, query));
  return (
    <>
      <title>Admin Dashboard · SwapPoints</title>
      <h1 className="text-2xl font-semibold tracking-tight">Admin Dashboard</h1>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
