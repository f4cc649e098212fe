import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { Link } from 'waku';
import type { AdminExchangeRequest } from '#api/modules/requests/model.ts';
import { conditionShortLabel, type AdminSort } from '#api/modules/requests/rules.ts';
import { RequestThumbnail } from '#src/components/requests/request-thumbnail.tsx';
import { StatusBadge, TransitChip } from '#src/components/requests/status-badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx';
import { ageLabel } from '#src/lib/journey.ts';
import { formatDate } from '#src/lib/requests.ts';
import { adminHref, type AdminView } from './admin-url.ts';

export const NO_REQUESTS = 'No exchange requests found in this category';

const COLUMNS: { label: string; sort?: AdminSort }[] = [
  { label: 'Product', sort: 'product' },
  { label: 'Brand', sort: 'brand' },
  { label: 'Condition', sort: 'condition' },
  { label: 'User Email', sort: 'email' },
  { label: 'Status' },
  { label: 'Date', sort: 'date' },
  { label: 'Age' },
  { label: 'Action' },
];

/** A column header that sorts the queue by it (again: the other way round). */
function SortHeader({ label, sort, view }: { label: string; sort?: AdminSort; view: AdminView }) {
  if (!sort) return <TableHead>{label}</TableHead>;
  const active = view.sort === sort;
  const order = active && view.order === 'asc' ? 'desc' : 'asc';
  const Icon = !active ? ArrowUpDown : view.order === 'asc' ? ArrowUp : ArrowDown;
  return (
    <TableHead aria-sort={active ? (view.order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <Link
        to={adminHref({ ...view, page: 1, sort, order })}
        className="inline-flex items-center gap-1 rounded-sm hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        title={`Sort by ${label.toLowerCase()}, ${order === 'asc' ? 'A to Z, oldest first' : 'Z to A, newest first'}`}
      >
        {label}
        <Icon className="size-3.5" aria-hidden="true" />
      </Link>
    </TableHead>
  );
}

function StatusCell({ request, tab }: { request: AdminExchangeRequest; tab: number }) {
  return tab === 0 ? <StatusBadge status={request.status} /> : <TransitChip request={request} />;
}

function ViewLink({ request, className }: { request: AdminExchangeRequest; className?: string }) {
  return (
    <Button asChild variant="outline" size="sm" className={className}>
      <Link to={`/admin/exchange/${request.id}`} aria-label={`View ${request.productName} from ${request.userEmail}`}>
        View
      </Link>
    </Button>
  );
}

/**
 * Tabs 0-3: Product, Brand, Condition, User Email, Status (request status on tab 0, transit chip on
 * 1-3), Date, Age, View; sortable by its headers. Below 768px each request is a compact card whose
 * View button is always in sight.
 */
export function RequestsTable({ requests, view, locale, caption }: { requests: AdminExchangeRequest[]; view: AdminView; locale: string; caption: string }) {
  if (requests.length === 0) {
    return <p className="rounded-md border border-dashed px-4 py-10 text-center text-sm text-muted-foreground">{NO_REQUESTS}</p>;
  }
  const now = new Date();
  return (
    <>
      <div className="hidden md:block">
        <Table>
          <caption className="sr-only">{caption}</caption>
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              {COLUMNS.map((column) => (
                <SortHeader key={column.label} label={column.label} sort={column.sort} view={view} />
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {requests.map((request) => (
              <TableRow key={request.id} data-testid="admin-request-row">
                <TableCell>
                  <div className="flex items-center gap-3">
                    <RequestThumbnail images={request.images} productName={request.productName} className="size-10" />
                    <span className="max-w-56 truncate font-medium" title={request.productName}>
                      {request.productName}
                    </span>
                  </div>
                </TableCell>
                <TableCell className="max-w-40 truncate" title={request.brand}>
                  {request.brand}
                </TableCell>
                <TableCell>{conditionShortLabel(request.condition)}</TableCell>
                <TableCell className="max-w-64 truncate" title={request.userEmail}>
                  {request.userEmail}
                </TableCell>
                <TableCell>
                  <StatusCell request={request} tab={view.tab} />
                </TableCell>
                <TableCell>
                  <time dateTime={request.createdAt}>{formatDate(request.createdAt, locale)}</time>
                </TableCell>
                <TableCell className="whitespace-nowrap" data-testid="request-age">
                  {ageLabel(request.createdAt, now)}
                </TableCell>
                <TableCell>
                  <ViewLink request={request} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <ul className="flex flex-col gap-2 md:hidden" aria-label={caption}>
        {requests.map((request) => (
          <li key={request.id} className="flex items-center gap-3 rounded-lg border bg-card p-3" data-testid="admin-request-card">
            <RequestThumbnail images={request.images} productName={request.productName} className="size-12" />
            <div className="flex min-w-0 flex-1 flex-col gap-1">
              <p className="truncate font-medium" title={request.productName}>
                {request.productName}
              </p>
              <p className="truncate text-xs text-muted-foreground">
                {request.brand} · {conditionShortLabel(request.condition)} · {request.userEmail}
              </p>
              <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                <StatusCell request={request} tab={view.tab} />
                <span>
                  <time dateTime={request.createdAt}>{formatDate(request.createdAt, locale)}</time> · {ageLabel(request.createdAt, now)}
                </span>
              </div>
            </div>
            <ViewLink request={request} className="shrink-0" />
          </li>
        ))}
      </ul>
    </>
  );
}
