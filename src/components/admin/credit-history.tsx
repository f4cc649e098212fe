import { Download } from 'lucide-react';
import { Link } from 'waku';
import type { CreditRecord } from '#api/modules/credit/model.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx';
import { formatMoney } from '#api/lib/money.ts';
import { formatDate, formatTime } from '#src/lib/requests.ts';
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

/** The ids an operator pastes into the search or the CLI: a disclosure, so the row stays one line until asked. */
function RawIds({ record }: { record: CreditRecord }) {
  return (
    <details className="mt-0.5 max-w-56 text-xs text-muted-foreground" data-testid="credit-ids">
      <summary className="w-fit cursor-pointer rounded-sm underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
        IDs<span className="sr-only"> of the credit to {record.customerEmail}</span>
      </summary>
      <dl className="mt-1 grid gap-0.5 font-mono break-all">
        <dt className="font-sans">User ID</dt>
        <dd data-testid="credit-user-id">{record.userId}</dd>
        <dt className="font-sans">Exchange ID</dt>
        <dd data-testid="credit-exchange-id">{record.exchangeRequestId}</dd>
      </dl>
    </details>
  );
}

export function exportHref(view: AdminView): string {
  return view.q ? `/api/admin/credit-history/export.csv?q=${encodeURIComponent(view.q)}` : '/api/admin/credit-history/export.csv';
}

/** Tab 4: every exchange credit, customer and product first, searchable by user ID, exchange ID or email, paged 5/10/25, at most 600 px tall. */
export function CreditHistory({ view, records, total, locale }: { view: AdminView; records: CreditRecord[]; total: number; locale: string }) {
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-col gap-1">
          <SearchBox key="credit" view={view} placeholder="Search by user ID or exchange ID" />
          <p className="text-xs text-muted-foreground">Also finds the customer&apos;s email.</p>
        </div>
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
              <TableHead>User ID</TableHead>
              <TableHead>Exchange ID</TableHead>
              <TableHead>Date</TableHead>
              <TableHead>Type</TableHead>
              <TableHead className="text-right">Amount</TableHead>
              <TableHead>Status</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {records.map((record) => (
              <TableRow key={record.id} data-testid="credit-history-row">
                {/* the customer and the product lead the row; the raw ids open under them, for the keyboard too */}
                <TableCell className="align-top">
                  <span className="block max-w-56 truncate font-medium" title={`User ID ${record.userId}`} data-testid="credit-customer">
                    {record.customerEmail}
                  </span>
                  <RawIds record={record} />
                </TableCell>
                <TableCell>
                  {record.productName ? (
                    <Link
                      to={`/admin/exchange/${record.exchangeRequestId}`}
                      title={`Exchange ID ${record.exchangeRequestId}`}
                      className="block max-w-56 truncate text-primary underline-offset-4 hover:underline"
                    >
                      {record.productName}
                    </Link>
                  ) : (
                    <span className="font-mono text-xs text-muted-foreground" title="The request was deleted">
                      {record.exchangeRequestId}
                    </span>
                  )}
                </TableCell>
                <TableCell>
                  <time dateTime={record.createdAt} className="flex flex-col">
                    <span>{formatDate(record.createdAt, locale)}</span>
                    <span className="text-xs text-muted-foreground">{formatTime(record.createdAt, locale)}</span>
                  </time>
                </TableCell>
                <TableCell>{TYPE_LABELS[record.type] ?? record.type}</TableCell>
                <TableCell className="text-right font-medium tabular-nums">
                  {formatMoney(record.amount, record.currency)}
                  {record.bonusAmount > 0 ? (
                    <span className="block text-xs font-normal text-muted-foreground" data-testid="credit-bonus">
                      {formatMoney(record.baseAmount, record.currency)} + {formatMoney(record.bonusAmount, record.currency)} bonus
                    </span>
                  ) : null}
                </TableCell>
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
