import { Link } from 'waku';
import type { AdminExchangeRequest } from '#api/modules/requests/model.ts';
import { RequestThumbnail } from '#src/components/requests/request-thumbnail.tsx';
import { StatusBadge, TransitChip } from '#src/components/requests/status-badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx';
import { conditionShortLabel, formatDate } from '#src/lib/requests.ts';

export const NO_REQUESTS = 'No exchange requests found in this category';

/** Tabs 0-3: Product, Brand, Condition, User Email, Status (request status on tab 0, transit chip on 1-3), Date, View. */
export function RequestsTable({ requests, tab, locale, caption }: { requests: AdminExchangeRequest[]; tab: number; locale: string; caption: string }) {
  if (requests.length === 0) {
    return <p className="rounded-md border border-dashed px-4 py-10 text-center text-sm text-muted-foreground">{NO_REQUESTS}</p>;
  }
  return (
    <Table>
      <caption className="sr-only">{caption}</caption>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead>Product</TableHead>
          <TableHead>Brand</TableHead>
          <TableHead>Condition</TableHead>
          <TableHead>User Email</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Date</TableHead>
          <TableHead>Action</TableHead>
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
            <TableCell>{tab === 0 ? <StatusBadge status={request.status} /> : <TransitChip request={request} />}</TableCell>
            <TableCell>
              <time dateTime={request.createdAt}>{formatDate(request.createdAt, locale)}</time>
            </TableCell>
            <TableCell>
              <Button asChild variant="outline" size="sm">
                <Link to={`/admin/exchange/${request.id}`} aria-label={`View ${request.productName} from ${request.userEmail}`}>
                  View
                </Link>
              </Button>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
