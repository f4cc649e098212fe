import type { Language } from '#api/modules/users/rules.ts';
import { t } from '#src/i18n/t.ts';
import { cn } from '#src/lib/cn.ts';
import { activeStep, displayStatus, requestLine, STEP_TITLES } from '#src/lib/requests.ts';

/**
 * The request's status line (spec §4: 'Add Shipping Details!', 'Item has been shipped to us', …)
 * over a bar of how far along the five-step process it is. A declined request has no bar.
 */
export function TransitProgress({
  request,
  className,
  lang = 'en',
}: {
  request: { status: string; transitStatus: string | null; shippingDetails: unknown; creditAmount: number; creditedAt?: string | null; offer?: { status: string } | null };
  className?: string;
  lang?: Language;
}) {
  const status = displayStatus(request.status);
  const line = requestLine(request, lang);
  const step = status === 'pending' || status === 'declined' ? 0 : activeStep(request) + 1;
  const percent = status === 'completed' ? 100 : Math.round((step / STEP_TITLES.length) * 100);
  return (
    <div className={cn('flex flex-col gap-1', className)}>
      <p
        className={cn('text-sm font-medium', status === 'approved' && !request.shippingDetails && !request.transitStatus ? 'text-warning' : 'text-muted-foreground')}
        data-testid="status-line"
      >
        {line}
      </p>
      {status === 'declined' ? null : (
        <div
          role="progressbar"
          aria-label={t(lang, 'progress.label')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={line}
          className="h-1.5 w-full max-w-56 overflow-hidden rounded-full bg-primary/15"
        >
          <div className="h-full rounded-full bg-primary" style={{ width: `${percent}%` }} />
        </div>
      )}
    </div>
  );
}
