import type { PageProps } from 'waku/router';
import { AdminPageHeader } from '#src/components/admin/admin-page-header.tsx';
import { ReceiveScanner } from '#src/components/admin/receive-scanner.tsx';
import { pagePath, requireAdmin } from '#src/lib/session.server.ts';

/** Admin → Receive (issue 27): parcels are received by scanning their tracking number or packing slip. */
export default async function AdminReceivePage({ path, query }: PageProps<'/admin/receive'>) {
  await requireAdmin(pagePath(path, query));
  return (
    <>
      <title>Receive · Admin Dashboard · SwapPoints</title>
      <div className="flex max-w-3xl flex-col gap-5">
        <AdminPageHeader title="Receive">Scan each parcel as it arrives: its request is marked received and shown here with its photos.</AdminPageHeader>
        <ReceiveScanner />
      </div>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
