import { Badge } from '#src/components/ui/badge.tsx';
import type { Language } from '#api/modules/users/rules.ts';
import { conditionText, statusBadge, transitChipIn } from '#src/lib/requests.ts';

/** The request's status as a badge: Pending, Approved, Declined or Completed (unknown → Pending). */
export function StatusBadge({ status, className, lang }: { status: string | null | undefined; className?: string; lang?: Language }) {
  const badge = statusBadge(status, lang);
  return (
    <Badge variant={badge.variant} className={className} data-testid="status-badge">
      {badge.label}
    </Badge>
  );
}

/** Where the item is: Awaiting Shipping, Shipped, Received, Inspecting (nothing for pending or declined). */
export function TransitChip({
  request,
  className,
  lang,
}: {
  request: { status: string | null | undefined; transitStatus: string | null | undefined; shippingDetails?: unknown };
  className?: string;
  lang?: Language;
}) {
  const chip = transitChipIn(request, lang);
  if (!chip) return null;
  return (
    <Badge variant="outline" className={className} data-testid="transit-chip">
      <span aria-hidden="true" className={`size-1.5 rounded-full ${dotColour[chip.variant] ?? 'bg-muted-foreground'}`} />
      {chip.label}
    </Badge>
  );
}

const dotColour: Record<string, string> = {
  info: 'bg-info',
  success: 'bg-success',
  warning: 'bg-warning',
  destructive: 'bg-destructive',
};

/** The condition's short label as a chip ('Like New'). */
export function ConditionChip({ condition, className, lang }: { condition: string; className?: string; lang?: Language }) {
  return (
    <Badge variant="secondary" className={className}>
      {conditionText(condition, lang, true)}
    </Badge>
  );
}
