import { Download } from 'lucide-react';
import { Link } from 'waku';
import type { CreditRecord } from '#api/modules/requests/model.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx';
import { formatMoney } from '#src/lib/money.ts';
import { formatDate } from '#src/lib/requests.ts';
import { CREDIT_PAGE_SIZES, type AdminView } from './admin-url.ts';
import { PageSizeSelect } from './page-size-select.tsx';
import { Pager } from './pager.tsx';
import { RetryCreditButton } from './retry-credit-button.tsx';
import { SearchBox } from './search-box.tsx';

export const NO_CREDIT_HISTORY = 'No credit history found';
const TYPE_LABELS: Record<string, string> = { exchange_credit: 'Exchange Credit' };

/** Success or Failed (the push to the shop); a push still under way shows as Pending. */
function PushStatus({ record }: { record: CreditRecord }) {
  if (record.loyaltyPointsSuccess) return <Badge variant="success">Success</Badge>;
  if (record.pushStatus === 'pending') return <Badge variant="secondary">Pending</Badge>;
  return (
    <Badge variant="destructive" title={record.pushError ?? undefined}>
      Failed
    </Badge>
  );
}

/** '12:41 am UTC': the time of day under the date, so the column stays narrow. */
function timeOfDay(value: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { timeStyle: 'short' }).format(new Date(value)) +
    ` ${new Intl.DateTimeFormat(locale, { timeZoneName: 'short' }).formatToParts(new Date(value)).find((p) => p.type === 'timeZoneName')?.value ?? ''}`;
}

export function exportHref(view: AdminView): string {
  return view.q ? `/api/admin/credit-history/export.csv?q=${encodeURIComponent(view.q)}` : '/api/admin/credit-history/export.csv';
}

/** Tab 4: every exchange credit, searchable by user ID or exchange ID, paged 5/10/25, at most 600 px tall. */
export function CreditHistory({ view, records, total, locale }: { view: AdminView; records: CreditRecord[]; total: number; locale: string }) {
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SearchBox key="credit" view={view} placeholder="Search by user ID or exchange ID" />
        <Button asChild variant="outline" size="sm">
          <a href={exportHref(view)} download>
            <Download aria-hidden="true" />
            Export CSV
          </a>
        </Button>
      </div>
      {records.length === 0 ? (
        <p className="rounded-md border border-dashed px-4 py-10 text-center text-sm text-muted-foreground">{NO_CREDIT_HISTORY}</p>
      ) : (
        <Table containerClassName="max-h-[600px] border" data-testid="credit-history-table">
          <caption className="sr-only">Credit history</caption>
          <TableHeader sticky>
            <TableRow className="hover:bg-transparent">
              <TableHead>Date</TableHead>
              <TableHead>User ID</TableHead>
              <TableHead>Exchange ID</TableHead>
              <TableHead>Type</TableHead>
              <TableHead className="text-right">Amount</TableHead>
              <TableHead>Status</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {records.map((record) => (
              <TableRow key={record.id} data-testid="credit-history-row">
                <TableCell>
                  <time dateTime={record.createdAt} className="flex flex-col">
                    <span>{formatDate(record.createdAt, locale)}</span>
                    <span className="text-xs text-muted-foreground">{timeOfDay(record.createdAt, locale)}</span>
                  </time>
                </TableCell>
                <TableCell>
                  <span className="block font-mono text-xs">{record.userId}</span>
                  <span className="block text-xs text-muted-foreground">{record.customerEmail}</span>
                </TableCell>
                <TableCell>
                  <Link to={`/admin/exchange/${record.exchangeRequestId}`} className="font-mono text-xs text-primary underline-offset-4 hover:underline">
                    {record.exchangeRequestId}
                  </Link>
                </TableCell>
                <TableCell>{TYPE_LABELS[record.type] ?? record.type}</TableCell>
                <TableCell className="text-right font-medium tabular-nums">{formatMoney(record.amount, record.currency)}</TableCell>
                <TableCell>
                  <div className="flex items-center gap-2">
                    <PushStatus record={record} />
                    {record.pushStatus === 'failed' ? (
                      <RetryCreditButton id={record.id} label={`Retry the ${formatMoney(record.amount, record.currency)} credit for ${record.customerEmail}`} />
                    ) : null}
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <Pager view={view} total={total} noun="records">
        <PageSizeSelect view={view} sizes={CREDIT_PAGE_SIZES} />
      </Pager>
    </div>
  );
}
