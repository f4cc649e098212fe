import type { PageProps } from 'waku/router';
import type { WebhookDelivery, WebhookEndpoint } from '#api/modules/webhooks/model.ts';
import { AdminPageHeader } from '#src/components/admin/admin-page-header.tsx';
import { ErrorAlert, serverError } from '#src/components/admin/error-alert.tsx';
import { Badge } from '#src/components/ui/badge.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx';
import { EndpointActions, RedeliverButton } from '#src/components/webhooks/endpoint-actions.tsx';
import { EndpointForm } from '#src/components/webhooks/endpoint-form.tsx';
import { api } from '#src/lib/api.server.ts';
import { pagePath, requireAdmin } from '#src/lib/session.server.ts';

const when = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '—');

const STATUS_BADGE = { succeeded: 'success', pending: 'warning', failed: 'destructive' } as const;

function Endpoints({ endpoints }: { endpoints: WebhookEndpoint[] }) {
  if (endpoints.length === 0) return <p className="rounded-md border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">No webhook endpoints yet.</p>;
  return (
    <ul className="flex flex-col gap-3">
      {endpoints.map((e) => (
        <li key={e.id} className="flex flex-col gap-3 rounded-md border bg-card p-4 sm:flex-row sm:items-start sm:justify-between" data-testid="webhook-endpoint">
          <div className="flex min-w-0 flex-col gap-1">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium break-all">{e.url}</span>
              {e.enabled ? <Badge variant="success">On</Badge> : <Badge variant="destructive">Off</Badge>}
            </div>
            <p className="text-sm text-muted-foreground break-words">{e.events.join(', ')}</p>
            {e.disabledReason ? <p className="text-sm text-destructive">{e.disabledReason}</p> : null}
            <p className="text-xs text-muted-foreground">
              ID {e.id} · added {when(e.createdAt)}
            </p>
          </div>
          <EndpointActions id={e.id} url={e.url} enabled={e.enabled} />
        </li>
      ))}
    </ul>
  );
}

function Deliveries({ deliveries }: { deliveries: WebhookDelivery[] }) {
  if (deliveries.length === 0) return <p className="text-sm text-muted-foreground">No deliveries yet.</p>;
  return (
    <Table containerClassName="border">
      <caption className="sr-only">Recent webhook deliveries, newest first</caption>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead>Event</TableHead>
          <TableHead>Endpoint</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Last answer</TableHead>
          <TableHead>Created</TableHead>
          <TableHead className="text-right">Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {deliveries.map((d) => (
          <TableRow key={d.id} data-testid="webhook-delivery">
            <TableCell>
              <code>{d.eventType}</code>
            </TableCell>
            <TableCell className="max-w-56 truncate">{d.url}</TableCell>
            <TableCell>
              <Badge variant={STATUS_BADGE[d.status]}>{d.status}</Badge> <span className="text-xs text-muted-foreground">×{d.attempts}</span>
            </TableCell>
            <TableCell className="max-w-56 truncate">{d.lastStatusCode ?? d.lastError ?? '—'}</TableCell>
            <TableCell>{when(d.createdAt)}</TableCell>
            <TableCell className="text-right">
              <RedeliverButton id={d.id} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export default async function WebhooksPage({ path, query }: PageProps<'/admin/webhooks'>) {
  await requireAdmin(pagePath(path, query));
  const [endpoints, deliveries] = await Promise.all([api<WebhookEndpoint[]>('/api/admin/webhooks'), api<WebhookDelivery[]>('/api/admin/webhooks/deliveries?limit=50')]);
  return (
    <>
      <title>Webhooks · Admin · SwapPoints</title>
      <div className="flex flex-col gap-6">
        <AdminPageHeader title="Webhooks">
          Every request and credit event is POSTed to these endpoints, signed as Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature).
        </AdminPageHeader>
        <section aria-labelledby="endpoints-heading" className="flex flex-col gap-3">
          <h2 id="endpoints-heading" className="text-lg font-semibold">
            Endpoints
          </h2>
          {endpoints.ok && endpoints.data ? <Endpoints endpoints={endpoints.data} /> : <ErrorAlert fallback="Failed to load webhook endpoints" error={serverError(endpoints)} />}
        </section>
        <EndpointForm />
        <section aria-labelledby="deliveries-heading" className="flex flex-col gap-3">
          <h2 id="deliveries-heading" className="text-lg font-semibold">
            Recent deliveries
          </h2>
          {deliveries.ok && deliveries.data ? <Deliveries deliveries={deliveries.data} /> : <ErrorAlert fallback="Failed to load deliveries" error={serverError(deliveries)} />}
        </section>
      </div>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
