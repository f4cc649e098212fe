'use client';

import { CheckCircle2, Coins, PackageCheck } from 'lucide-react';
import { useId, useState, useTransition, type FormEvent, type ReactNode } from 'react';
import { useRouter } from 'waku';
import type { CreditedExchangeRequest } from '#api/modules/requests/model.ts';
import { Alert, AlertDescription } from '#src/components/ui/alert.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '#src/components/ui/dialog.tsx';
import { Input } from '#src/components/ui/input.tsx';
import { Label } from '#src/components/ui/label.tsx';
import { Textarea } from '#src/components/ui/textarea.tsx';
import { LengthHint, lengthHintShown } from '#src/components/ui/length-hint.tsx';
import { flash } from '#src/components/common/flash.tsx';
import { CreditValuationFields, suggestedCredit, type CreditValuationState } from '#src/components/admin/credit-valuation-fields.tsx';
import type { CreditGuide, StoredQuoteShape } from '#src/components/valuation/types.ts';
import { apiCall, type ClientResult } from '#src/lib/api-client.ts';
import { formatMoney } from '#api/lib/money.ts';
import { CREDIT_BEFORE_COMPLETING, INVALID_CREDIT, wholeCredit } from '#api/modules/credit/rules.ts';
import { bonusOf, campaignBonusName } from '#api/modules/valuation/rules.ts';
import { ADMIN_TEXT_LIMITS } from '#api/modules/requests/rules.ts';
import { ErrorAlert } from './error-alert.tsx';

export const TRANSIT_FAILED = 'Failed to update transit status';
export const CREDIT_FAILED = 'Failed to assign loyalty points';
export const COMPLETE_FAILED = 'Failed to complete exchange';
export { INVALID_CREDIT, CREDIT_BEFORE_COMPLETING };

type Failure = { fallback: string; detail?: string | null } | null;

/** A call's outcome as ActionDialog shows it: null when it went through, else `fallback` with the server's reason. */
const failureOf = (result: ClientResult<unknown>, fallback: string): Failure => (result.ok ? null : { fallback, detail: result.error });

/**
 * An action's optional note (the API takes up to 10,000 characters); with `limit`, its length is
 * shown as it nears the limit, in the API's words at the limit.
 */
function NoteField({ id, label, value, onChange, limit }: { id: string; label: string; value: string; onChange: (value: string) => void; limit?: { label: string; max: number } }) {
  const max = limit?.max ?? 10_000;
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Textarea
        id={id}
        rows={3}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        maxLength={max}
        aria-describedby={limit && lengthHintShown(value.length, max) ? `${id}-length` : undefined}
      />
      {limit ? <LengthHint id={`${id}-length`} label={limit.label} length={value.length} max={max} /> : null}
    </div>
  );
}

/** A button that opens a small dialog; `run` does the call and returns a failure or null. */
function ActionDialog({
  label,
  icon,
  title,
  description,
  enabled,
  disabledWhy,
  confirm,
  children,
  run,
  after,
  done: doneMessage,
}: {
  label: string;
  icon: ReactNode;
  title: string;
  description: string;
  enabled: boolean;
  /** said under the button while it is disabled */
  disabledWhy?: string;
  confirm: string;
  children?: ReactNode;
  /** null: done; a failure; 'keep-open': done, with `after` to read; 'ask': not yet, the form asks to confirm */
  run: () => Promise<Failure | 'keep-open' | 'ask'>;
  after?: ReactNode;
  /** the confirmation shown once it went through */
  done?: string;
}) {
  const whyId = useId();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<Failure>(null);
  const [done, setDone] = useState(false);
  const [pending, startTransition] = useTransition();

  const close = () => {
    setOpen(false);
    if (done) startTransition(async () => router.reload());
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    startTransition(async () => {
      setError(null);
      const outcome = await run();
      if (outcome === 'ask') return;
      if (outcome === 'keep-open') {
        setDone(true);
        return;
      }
      if (outcome) {
        setError(outcome);
        return;
      }
      setOpen(false);
      if (doneMessage) flash(doneMessage);
      await router.reload();
    });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) {
          setError(null);
          setDone(false);
          setOpen(true);
        } else close();
      }}
    >
      <div className="flex flex-col gap-1">
        <DialogTrigger asChild>
          <Button type="button" size="sm" disabled={!enabled || pending} className="w-fit" aria-describedby={!enabled && disabledWhy ? whyId : undefined}>
            {icon}
            {label}
          </Button>
        </DialogTrigger>
        {!enabled && disabledWhy ? (
          <p id={whyId} className="text-xs text-muted-foreground" data-testid="disabled-reason">
            {disabledWhy}
          </p>
        ) : null}
      </div>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {done ? (
          <>
            {after}
            <DialogFooter>
              <Button type="button" onClick={close}>
                Close
              </Button>
            </DialogFooter>
          </>
        ) : (
          <form onSubmit={submit} onInput={() => setError(null)} noValidate className="flex flex-col gap-4" aria-label={title}>
            {children}
            {error ? <ErrorAlert fallback={error.fallback} error={error.detail} /> : null}
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={pending}>
                {pending ? 'Saving...' : confirm}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** Step 3: the item arrived (only after the customer shipped it, and once). */
export function MarkReceivedAction({ requestId, enabled }: { requestId: string; enabled: boolean }) {
  const id = useId();
  const [note, setNote] = useState('');
  return (
    <ActionDialog
      label="Mark as Received"
      icon={<PackageCheck aria-hidden="true" />}
      title="Mark as Received"
      description="Confirm that the item has arrived at the warehouse. The customer is told by email."
      confirm="Mark as Received"
      enabled={enabled}
      disabledWhy="Waiting for the customer to add the shipping details."
      done="Marked as received. The customer has been emailed."
      run={async () => {
        const result = await apiCall(`/api/admin/exchange-requests/${requestId}/transit`, { method: 'PUT', body: { transitStatus: 'received', adminNote: note } });
        return failureOf(result, TRANSIT_FAILED);
      }}
    >
      <NoteField id={`${id}-note`} label="Notes (Optional)" value={note} onChange={setNote} limit={ADMIN_TEXT_LIMITS.adminNote} />
    </ActionDialog>
  );
}

/** Step 4: the credit, a whole number of at least 0 (rounded before sending), with an optional note; assigned once. */
export function AssignCreditAction({
  requestId,
  enabled,
  currency,
  currencySymbol,
  customer,
  valuation,
  waitingWhy,
}: {
  requestId: string;
  enabled: boolean;
  /** why it is disabled when not for want of the item (an offer waits for the customer's answer) */
  waitingWhy?: string;
  currency: string;
  currencySymbol: string;
  /** who receives it, named in the confirmation */
  customer: string;
  /** the guide's suggestion: pre-fills the amount (base × the customer's condition) and shows quote and bonus */
  valuation?: { guide: CreditGuide; quote: StoredQuoteShape | null; condition: string; currency: string };
}) {
  const id = useId();
  const suggested = valuation ? suggestedCredit(valuation.guide, valuation.condition) : null;
  const [amount, setAmount] = useState(suggested === null ? '' : String(suggested));
  const [note, setNote] = useState('');
  const [invalid, setInvalid] = useState(false);
  // the whole amount the admin has been shown and asked to confirm
  const [checked, setChecked] = useState<number | null>(null);
  // what the customer gets: the amount and the campaign's bonus on top, as the server adds it
  const campaign = valuation?.guide.campaign ?? null;
  const bonus = checked === null ? 0 : bonusOf(campaign, checked);
  const give = checked === null ? null : formatMoney(checked + bonus, currency);
  const parts = checked !== null && bonus > 0 ? `${formatMoney(checked, currency)} + ${formatMoney(bonus, currency)} ${campaignBonusName(campaign?.name)}` : null;
  // below the quote the customer saw (estimate plus bonus) the credit is an offer they answer first (issue 24)
  const quoted = valuation?.quote ? valuation.quote.estimate + valuation.quote.bonus : null;
  const isOffer = checked !== null && quoted !== null && checked + bonus < quoted;
  const [condition, setCondition] = useState(valuation?.condition ?? '');
  const [extra, setExtra] = useState<CreditValuationState>({ reason: '', photos: [] });
  const [reasonInvalid, setReasonInvalid] = useState(false);
  return (
    <ActionDialog
      label="Assign Loyalty Points"
      icon={<Coins aria-hidden="true" />}
      title="Assign Loyalty Points"
      description="The store credit this item is worth, as a whole number. It is added to the customer's shop account at once."
      confirm={give ? `${isOffer ? 'Offer' : 'Give'} ${give}` : 'Assign Loyalty Points'}
      enabled={enabled}
      disabledWhy={waitingWhy ?? 'Mark the item as received first.'}
      done={
        give
          ? isOffer
            ? `Offer of ${give} sent to ${customer}: the credit is given when they accept it.`
            : `${give} store credit assigned to ${customer}${parts ? ` (${parts})` : ''}.`
          : undefined
      }
      after={
        <Alert variant="warning">
          <AlertDescription>
            The credit is recorded, but the shop has not accepted it yet. It is retried automatically; see Credit History.
          </AlertDescription>
        </Alert>
      }
      run={async () => {
        const value = amount.trim() === '' ? null : wholeCredit(amount);
        if (value === null) {
          setInvalid(true);
          return { fallback: INVALID_CREDIT };
        }
        setInvalid(false);
        const belowQuote = valuation?.quote ? Math.round(value) < valuation.quote.estimate : false;
        // The reason is asked for before the confirmation, not found missing after it.
        const reasonMissing = belowQuote && !extra.reason.trim();
        setReasonInvalid(reasonMissing);
        if (reasonMissing) {
          setChecked(null);
          requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-credit-reason]')?.focus());
          return 'ask';
        }
        // First the rounded amount and who gets it, then the credit: it cannot be taken back here.
        if (checked !== Math.round(value)) {
          setChecked(Math.round(value));
          return 'ask';
        }
        const result = await apiCall<CreditedExchangeRequest>(`/api/admin/exchange-requests/${requestId}/credit`, {
          method: 'PUT',
          body: { creditAmount: Math.round(value), additionalFeedback: note, ...(belowQuote ? { reason: extra.reason, inspectionImages: extra.photos } : {}) },
        });
        if (!result.ok) return failureOf(result, CREDIT_FAILED);
        // an offer gives no credit yet, so there is no push to wait for
        return result.data?.offer == null && result.data?.loyaltyPointsSuccess === false ? 'keep-open' : null;
      }}
    >
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-amount`}>Credit Amount ({currencySymbol.trim()})</Label>
        <Input
          id={`${id}-amount`}
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          value={amount}
          onChange={(e) => {
            setAmount(e.target.value);
            setInvalid(false);
            setChecked(null);
          }}
          aria-invalid={invalid || undefined}
          required
        />
      </div>
      {give ? (
        <Alert variant="info" data-testid="credit-confirmation">
          <AlertDescription className="flex flex-col gap-0.5 text-foreground">
            <span>
              {isOffer ? 'Offer' : 'Give'} <strong>{give}</strong> store credit to <strong className="break-all">{customer}</strong>?
            </span>
            {isOffer ? <span data-testid="offer-note">It is below the {formatMoney(quoted!, currency)} they were quoted, so they accept or decline it first.</span> : null}
            {parts ? <span data-testid="credit-parts">{parts}</span> : null}
            <span className="text-muted-foreground">
              {Number(amount) !== checked ? `(${amount} rounded to a whole number.) ` : ''}It cannot be changed afterwards.
            </span>
          </AlertDescription>
        </Alert>
      ) : null}
      {valuation ? (
        <CreditValuationFields
          guide={valuation.guide}
          quote={valuation.quote}
          currency={valuation.currency}
          condition={condition}
          amount={amount.trim() === '' || !Number.isFinite(Number(amount)) ? null : Math.round(Number(amount))}
          onCondition={(next, suggestion) => {
            setCondition(next);
            if (suggestion !== null) setAmount(String(suggestion));
            setChecked(null);
          }}
          value={extra}
          onChange={setExtra}
          reasonInvalid={reasonInvalid}
        />
      ) : null}
      <NoteField id={`${id}-note`} label="Note (Optional)" value={note} onChange={setNote} limit={ADMIN_TEXT_LIMITS.creditNote} />
    </ActionDialog>
  );
}

/** Step 5: completes a credited request; until credit is assigned it says why it cannot. */
export function CompleteAction({ requestId, enabled, needsCredit }: { requestId: string; enabled: boolean; needsCredit: boolean }) {
  return (
    <div className="flex flex-col gap-1">
      <ActionDialog
        label="Complete Exchange"
        icon={<CheckCircle2 aria-hidden="true" />}
        title="Complete Exchange"
        description="Close this exchange. The customer is told by email that it is complete."
        confirm="Complete Exchange"
        enabled={enabled}
        done="Exchange completed. The customer has been emailed."
        run={async () => {
          const result = await apiCall(`/api/admin/exchange-requests/${requestId}/status`, { method: 'PUT', body: { status: 'completed' } });
          return failureOf(result, COMPLETE_FAILED);
        }}
      />
      {needsCredit ? <p className="text-xs text-muted-foreground">{CREDIT_BEFORE_COMPLETING}</p> : null}
    </div>
  );
}
