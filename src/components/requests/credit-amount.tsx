import { Coins } from 'lucide-react';
import { cn } from '#src/lib/cn.ts';
import { formatMoney } from '#api/lib/money.ts';
import { LANGUAGE_LOCALES, type Language } from '#api/modules/users/rules.ts';
import { t } from '#src/i18n/t.ts';

/**
 * An amount of store credit in its own currency, highlighted: '₹250.00' under a label. Used for the
 * credit a request earned and for the total available store credit.
 */
export function CreditAmount({
  amount,
  currency,
  label = t('en', 'request.creditAssigned'),
  description,
  className,
  locale,
}: {
  amount: number;
  currency: string | null | undefined;
  label?: string;
  description?: string;
  className?: string;
  /** the reader's locale for the amount (en-IN, hi-IN) */
  locale?: string;
}) {
  return (
    <div className={cn('flex items-center gap-3 rounded-lg border border-success/30 bg-success/5 p-4', className)}>
      <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-success text-success-foreground">
        <Coins className="size-5" aria-hidden="true" />
      </span>
      <div className="min-w-0">
        <p className="text-sm font-medium text-muted-foreground">{label}</p>
        <p className="text-2xl font-bold text-success tabular-nums" data-testid="credit-amount-value">
          {formatMoney(amount, currency, locale)}
        </p>
        {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
      </div>
    </div>
  );
}

/** A short line for a list item: 'Credit: ₹250.00' (in `lang`, English when not given). */
export function CreditAmountInline({
  amount,
  currency,
  className,
  lang,
}: {
  amount: number;
  currency: string | null | undefined;
  className?: string;
  lang?: Language;
}) {
  return (
    <p className={cn('text-sm font-semibold text-success', className)} data-testid="request-credit">
      {t(lang ?? 'en', 'credit.inline', { amount: formatMoney(amount, currency, lang && LANGUAGE_LOCALES[lang]) })}
    </p>
  );
}
