import type { ReactNode } from 'react';
import type { AdminExchangeRequestDetail } from '#api/modules/requests/model.ts';
import { StatusBadge, TransitChip } from '#src/components/requests/status-badge.tsx';
import { formatMoney } from '#api/lib/money.ts';
import { conditionLabel } from '#api/modules/requests/rules.ts';
import { formatDate, formatDateTime } from '#src/lib/requests.ts';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <tr className="border-b last:border-0">
      <th scope="row" className="w-44 py-2.5 pr-4 text-left align-top text-sm font-medium text-muted-foreground">
        {label}
      </th>
      <td className="py-2.5 align-top text-sm break-words">{children}</td>
    </tr>
  );
}

/** The admin's facts about a request: who, what state, when, shipping and the credit. */
export function RequestDetails({ request, locale }: { request: AdminExchangeRequestDetail; locale: string }) {
  const shipping = request.shippingDetails;
  return (
    <table className="w-full" data-testid="request-details">
      <caption className="sr-only">Request details</caption>
      <tbody>
        <Row label="Request ID">
          <span className="font-mono text-xs break-all">{request.id}</span>
        </Row>
        <Row label="Customer">
          <span className="block font-medium">{request.customerName || 'Unknown'}</span>
          <a href={`mailto:${request.customerEmail}`} className="text-primary underline-offset-4 hover:underline">
            {request.customerEmail}
          </a>
        </Row>
        <Row label="Status">
          <span className="flex flex-wrap items-center gap-2">
            <StatusBadge status={request.status} />
            <TransitChip request={request} />
          </span>
        </Row>
        <Row label="Product">
          {request.productName} · {request.brand}
        </Row>
        <Row label="Condition">{conditionLabel(request.condition)}</Row>
        <Row label="Submitted">
          <time dateTime={request.createdAt}>{formatDateTime(request.createdAt, locale)}</time>
        </Row>
        <Row label="Last Updated">
          <time dateTime={request.updatedAt}>{formatDateTime(request.updatedAt, locale)}</time>
        </Row>
        <Row label="Shipping">
          {shipping ? (
            <span className="flex flex-col">
              <span>Carrier: {shipping.carrierName}</span>
              <span>Tracking: {shipping.trackingNumber}</span>
              <span>Shipped on: {formatDate(shipping.shippingDate, locale)}</span>
              {shipping.notes ? <span className="whitespace-pre-line text-muted-foreground">Notes: {shipping.notes}</span> : null}
            </span>
          ) : (
            <span className="text-muted-foreground">No shipping details yet</span>
          )}
        </Row>
        {request.warehouseInfo ? (
          <Row label="Ships To">
            {request.warehouseInfo.name}, {request.warehouseInfo.city}
          </Row>
        ) : null}
        <Row label="Assigned Loyalty Points">
          <span className="font-medium tabular-nums" data-testid="assigned-points">
            {formatMoney(request.creditAmount, request.currency)}
          </span>
        </Row>
        <Row label="Customer's store credit balance">
          {request.totalLoyaltyPoints === null ? (
            <span className="text-muted-foreground">Unavailable (the shop could not be reached)</span>
          ) : (
            <span className="font-medium tabular-nums">{formatMoney(request.totalLoyaltyPoints, request.currency)}</span>
          )}
        </Row>
      </tbody>
    </table>
  );
}
