import type { ReactNode } from 'react';
import type { ExchangeRequest } from '#api/modules/requests/model.ts';
import type { Language } from '#api/modules/users/rules.ts';
import { Table, TableBody, TableCell, TableHead, TableRow } from '#src/components/ui/table.tsx';
import { serverText } from '#src/i18n/server-text.ts';
import { translator } from '#src/i18n/t.ts';
import { conditionText, formatDate, formatDateTime } from '#src/lib/requests.ts';

/** The detail table: product, brand, condition, dates, shipping and where it was shipped to. */
export function RequestDetailsTable({ request, locale, lang = 'en' }: { request: ExchangeRequest; locale: string; lang?: Language }) {
  const t = translator(lang);
  const rows: [string, ReactNode][] = [
    [t('new.productName'), request.productName],
    [t('new.brand'), request.brand],
    [t('new.condition'), conditionText(request.condition, lang)],
    [t('details.submitted'), <time dateTime={request.createdAt}>{formatDateTime(request.createdAt, locale)}</time>],
  ];
  if (request.status !== 'pending') rows.push([t('details.updated'), <time dateTime={request.updatedAt}>{formatDateTime(request.updatedAt, locale)}</time>]);
  const shipping = request.shippingDetails;
  if (shipping) {
    rows.push([t('details.carrier'), shipping.carrierName], [t('details.tracking'), shipping.trackingNumber], [t('details.shippingDate'), formatDate(shipping.shippingDate, locale)]);
    // the courier's pickup writes its own note (the API's words); a customer's note is shown as written
    if (shipping.notes) rows.push([t('details.notes'), serverText(lang, shipping.notes)]);
  }
  if (shipping && request.warehouseInfo) rows.push([t('details.shippedTo'), `${request.warehouseInfo.name}, ${request.warehouseInfo.city}`]);
  return (
    <Table aria-label={t('details.label')}>
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
