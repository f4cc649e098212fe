import type { ReactNode } from 'react';
import type { ExchangeRequest } from '#api/modules/requests/model.ts';
import { Table, TableBody, TableCell, TableHead, TableRow } from '#src/components/ui/table.tsx';
import { conditionLabel } from '#api/modules/requests/rules.ts';
import { formatDate, formatDateTime } from '#src/lib/requests.ts';

/** The detail table: product, brand, condition, dates, shipping and where it was shipped to. */
export function RequestDetailsTable({ request, locale }: { request: ExchangeRequest; locale: string }) {
  const rows: [string, ReactNode][] = [
    ['Product Name', request.productName],
    ['Brand', request.brand],
    ['Condition', conditionLabel(request.condition)],
    ['Submitted', <time dateTime={request.createdAt}>{formatDateTime(request.createdAt, locale)}</time>],
  ];
  if (request.status !== 'pending') rows.push(['Last Updated', <time dateTime={request.updatedAt}>{formatDateTime(request.updatedAt, locale)}</time>]);
  const shipping = request.shippingDetails;
  if (shipping) {
    rows.push(['Shipping Carrier', shipping.carrierName], ['Tracking Number', shipping.trackingNumber], ['Shipping Date', formatDate(shipping.shippingDate, locale)]);
    if (shipping.notes) rows.push(['Shipping Notes', shipping.notes]);
  }
  if (shipping && request.warehouseInfo) rows.push(['Shipped To', `${request.warehouseInfo.name}, ${request.warehouseInfo.city}`]);
  return (
    <Table aria-label="Request details">
      <TableBody>
        {rows.map(([label, value]) => (
          <TableRow key={label} className="hover:bg-transparent">
            <TableHead scope="row" className="h-auto w-32 py-2.5 align-top text-sm font-medium tracking-normal whitespace-normal normal-case sm:w-44">
              {label}
            </TableHead>
            <TableCell className="align-top break-words whitespace-normal">{value}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
