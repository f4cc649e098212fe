import type { ReactNode } from 'react';
import type { ReturnParcel } from '#api/modules/shipments/model.ts';
import type { TrackingStatus } from '#api/modules/shipments/rules.ts';
import type { Language } from '#api/modules/users/rules.ts';
import { translator } from '#src/i18n/t.ts';

/**
 * What every parcel card lists first: its carrier, AWB and latest step (`waiting` until the carrier
 * reports one), then the card's own facts (`children`). Test ids are `${testIdPrefix}-carrier`, `-awb`, `-status`.
 */
export function ParcelFacts({
  parcel,
  labels,
  waiting,
  testIdPrefix,
  lang = 'en',
  children,
}: {
  parcel: Pick<ReturnParcel, 'carrier' | 'trackingNumber' | 'status'>;
  labels: Record<TrackingStatus, string>;
  waiting: string;
  testIdPrefix: string;
  lang?: Language;
  children?: ReactNode;
}) {
  const t = translator(lang);
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
      <dt className="text-muted-foreground">{t('parcel.carrier')}</dt>
      <dd data-testid={`${testIdPrefix}-carrier`}>{parcel.carrier}</dd>
      <dt className="text-muted-foreground">{t('parcel.awb')}</dt>
      <dd className="font-mono break-all" data-testid={`${testIdPrefix}-awb`}>{parcel.trackingNumber}</dd>
      <dt className="text-muted-foreground">{t('parcel.status')}</dt>
      <dd data-testid={`${testIdPrefix}-status`}>{parcel.status ? labels[parcel.status] : waiting}</dd>
      {children}
    </dl>
  );
}
