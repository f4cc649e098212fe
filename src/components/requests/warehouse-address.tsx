import { MapPin, Phone, User } from 'lucide-react';
import type { WarehouseInfo } from '#api/modules/warehouses/model.ts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#src/components/ui/card.tsx';
import type { Language } from '#api/modules/users/rules.ts';
import { translator } from '#src/i18n/t.ts';
import { cn } from '#src/lib/cn.ts';

/**
 * A warehouse's postal address as a card: the customer's 'Ship To This Address' and the admin's
 * 'Customer Ships To This Address'. Contact person and phone only when present.
 */
export function WarehouseAddress({
  warehouse,
  title,
  description,
  headingLevel = 'h2',
  className,
  lang = 'en',
}: {
  warehouse: WarehouseInfo;
  title?: string;
  description?: string;
  headingLevel?: 'h2' | 'h3';
  className?: string;
  lang?: Language;
}) {
  const t = translator(lang);
  return (
    <Card className={cn('gap-4 border-info/40', className)} data-testid="warehouse-address">
      <CardHeader>
        <CardTitle as={headingLevel} className="flex items-center gap-2">
          <MapPin className="size-5 text-info" aria-hidden="true" />
          {title ?? t('warehouse.title')}
        </CardTitle>
        {description ? <CardDescription>{description}</CardDescription> : null}
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        <address className="not-italic leading-relaxed">
          <span className="block font-semibold">{warehouse.name}</span>
          <span className="block">{warehouse.addressLine1}</span>
          {warehouse.addressLine2 ? <span className="block">{warehouse.addressLine2}</span> : null}
          <span className="block">
            {warehouse.city}, {warehouse.state} {warehouse.postalCode}
          </span>
          <span className="block">{warehouse.country}</span>
        </address>
        {warehouse.contactPerson || warehouse.contactPhone ? (
          <div className="flex flex-wrap gap-x-6 gap-y-1 text-muted-foreground">
            {warehouse.contactPerson ? (
              <span className="flex items-center gap-1.5">
                <User className="size-4" aria-hidden="true" />
                <span className="sr-only">{t('warehouse.contact')}</span>
                {warehouse.contactPerson}
              </span>
            ) : null}
            {warehouse.contactPhone ? (
              <span className="flex items-center gap-1.5">
                <Phone className="size-4" aria-hidden="true" />
                <span className="sr-only">{t('warehouse.phone')}</span>
                <a href={`tel:${warehouse.contactPhone.replace(/[^\d+]/g, '')}`} className="underline-offset-4 hover:underline">
                  {warehouse.contactPhone}
                </a>
              </span>
            ) : null}
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
