import type { PageProps } from 'waku/router';
import type { BlockEntry } from '#api/modules/risk/model.ts';
import { AdminPageHeader } from '#src/components/admin/admin-page-header.tsx';
import { ErrorAlert, serverError } from '#src/components/admin/error-alert.tsx';
import { BlockForm, UnblockButton } from '#src/components/risk/block-form.tsx';
import { api } from '#src/lib/api.server.ts';
import { pagePath, requireAdmin } from '#src/lib/session.server.ts';

const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

function BlockList({ entries }: { entries: BlockEntry[] }) {
  if (entries.length === 0) return <p className="rounded-md border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">Nobody is blocked.</p>;
  return (
    <ul className="flex flex-col gap-3" aria-label="Blocked emails and domains">
      {entries.map((e) => (
        <li key={e.id} className="flex flex-col gap-3 rounded-md border bg-card p-4 sm:flex-row sm:items-start sm:justify-between" data-testid="block-entry">
          <div className="flex min-w-0 flex-col gap-1">
            <span className="font-medium break-all">{e.entry}</span>
            <p className="text-sm break-words">{e.reason}</p>
            <p className="text-xs text-muted-foreground">
              by {e.createdBy} · {when(e.createdAt)}
            </p>
          </div>
          <UnblockButton entry={e} />
        </li>
      ))}
    </ul>
  );
}

export default async function RiskPage({ path, query }: PageProps<'/admin/risk'>) {
  await requireAdmin(pagePath(path, query));
  const blocks = await api<BlockEntry[]>('/api/admin/risk/blocks');
  return (
    <>
      <title>Risk · Admin · SwapPoints</title>
      <div className="flex flex-col gap-6">
        <AdminPageHeader title="Risk">
          Emails and domains whose trade-in requests are refused. Requests sharing a photo with another customer&apos;s are flagged in the queue (the Flagged filter).
        </AdminPageHeader>
        <BlockForm />
        <section aria-labelledby="blocks-heading" className="flex flex-col gap-3">
          <h2 id="blocks-heading" className="text-lg font-semibold">
            Block list
          </h2>
          {blocks.ok && blocks.data ? <BlockList entries={blocks.data} /> : <ErrorAlert fallback="Failed to load the block list" error={serverError(blocks)} />}
        </section>
      </div>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
