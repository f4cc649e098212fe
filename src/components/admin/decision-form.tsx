'use client';

import { TriangleAlert } from 'lucide-react';
import { useId, useState, useTransition, type FormEvent } from 'react';
import { Link, useRouter } from 'waku';
import { Alert, AlertDescription, AlertTitle } from '#src/components/ui/alert.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Label } from '#src/components/ui/label.tsx';
import { RadioGroup, RadioGroupItem } from '#src/components/ui/radio-group.tsx';
import { NativeSelect } from '#src/components/ui/select.tsx';
import { Textarea } from '#src/components/ui/textarea.tsx';
import { ADMIN_TEXT_LIMITS, DECLINE_NEEDS_FEEDBACK, WAREHOUSE_REQUIRED } from '#api/modules/requests/rules.ts';
import { LengthHint, lengthHintShown } from '#src/components/ui/length-hint.tsx';
import { flash } from '#src/components/common/flash.tsx';
import { apiCall } from '#src/lib/api-client.ts';
import { ErrorAlert } from './error-alert.tsx';

const FEEDBACK = ADMIN_TEXT_LIMITS.adminFeedback;

export const UPDATE_STATUS_FAILED = 'Failed to update status';

export interface WarehouseOption {
  id: string;
  name: string;
  city: string;
  state: string;
}

type Choice = 'approved' | 'declined';

/**
 * The review of a pending request: Approve (with one of the active warehouses) or Decline, with
 * feedback for the customer. Submit Decision stays disabled until a choice differs from the status.
 */
export function DecisionForm({
  requestId,
  status,
  feedback,
  warehouses,
}: {
  requestId: string;
  status: string;
  feedback: string | null;
  warehouses: WarehouseOption[];
}) {
  const router = useRouter();
  const id = useId();
  const [choice, setChoice] = useState<string>(status);
  const [warehouseId, setWarehouseId] = useState('');
  const [adminFeedback, setAdminFeedback] = useState(feedback ?? '');
  const [error, setError] = useState<{ fallback: string; detail?: string | null } | null>(null);
  const [pending, startTransition] = useTransition();
  const approving = choice === 'approved';
  const missingWarehouse = error?.fallback === WAREHOUSE_REQUIRED;
  const missingFeedback = error?.fallback === DECLINE_NEEDS_FEEDBACK;
  const disabledWhy = choice === status ? 'Choose Approve or Decline to submit a decision.' : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (choice === status) return;
    if (approving && !warehouseId) {
      setError({ fallback: WAREHOUSE_REQUIRED });
      return;
    }
    if (choice === 'declined' && !adminFeedback.trim()) {
      setError({ fallback: DECLINE_NEEDS_FEEDBACK });
      document.getElementById(`${id}-feedback`)?.focus();
      return;
    }
    setError(null);
    startTransition(async () => {
      const body = { status: choice, adminFeedback, ...(approving ? { warehouseId } : {}) };
      const result = await apiCall(`/api/admin/exchange-requests/${requestId}/status`, { method: 'PUT', body });
      if (!result.ok) {
        setError({ fallback: UPDATE_STATUS_FAILED, detail: result.error });
        return;
      }
      flash(choice === 'approved' ? 'Request approved. The customer has been emailed the address to ship to.' : 'Request declined. The customer has been emailed your feedback.');
      await router.reload();
    });
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5" aria-label="Review decision">
      <fieldset className="flex flex-col gap-3">
        <legend id={`${id}-decision`} className="mb-3 text-sm font-medium">
          Decision
        </legend>
        <RadioGroup
          aria-labelledby={`${id}-decision`}
          value={choice === 'approved' || choice === 'declined' ? choice : ''}
          onValueChange={(value) => {
            setChoice(value as Choice);
            setError(null);
          }}
          className="flex flex-wrap gap-6"
        >
          <div className="flex items-center gap-2">
            <RadioGroupItem value="approved" id={`${id}-approve`} />
            <Label htmlFor={`${id}-approve`}>Approve</Label>
          </div>
          <div className="flex items-center gap-2">
            <RadioGroupItem value="declined" id={`${id}-decline`} />
            <Label htmlFor={`${id}-decline`}>Decline</Label>
          </div>
        </RadioGroup>
      </fieldset>

      {approving ? (
        warehouses.length > 0 ? (
          <div className="flex flex-col gap-2">
            <Label htmlFor={`${id}-warehouse`}>Warehouse</Label>
            <NativeSelect
              id={`${id}-warehouse`}
              value={warehouseId}
              onChange={(event) => {
                setWarehouseId(event.target.value);
                if (missingWarehouse) setError(null);
              }}
              aria-describedby={`${id}-warehouse-hint`}
              aria-invalid={missingWarehouse || undefined}
              required
            >
              <option value="">Select a warehouse</option>
              {warehouses.map((w) => (
                <option key={w.id} value={w.id}>
                  {`${w.name} - ${w.city}, ${w.state}`}
                </option>
              ))}
            </NativeSelect>
            <p id={`${id}-warehouse-hint`} className={missingWarehouse ? 'text-xs text-destructive' : 'text-xs text-muted-foreground'}>
              Required for approval
            </p>
          </div>
        ) : (
          <Alert variant="warning">
            <TriangleAlert aria-hidden="true" />
            <AlertTitle>No active warehouses</AlertTitle>
            <AlertDescription>
              <p>
                A request can only be approved with a warehouse for the customer to ship to.{' '}
                <Link to="/admin?tab=5" className="font-medium text-primary underline underline-offset-4">
                  Add a warehouse in the Warehouse Manager
                </Link>
              </p>
            </AlertDescription>
          </Alert>
        )
      ) : null}

      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-feedback`}>{FEEDBACK.label}</Label>
        <Textarea
          id={`${id}-feedback`}
          rows={4}
          value={adminFeedback}
          onChange={(event) => {
            setAdminFeedback(event.target.value);
            if (missingFeedback) setError(null);
          }}
          placeholder={choice === 'declined' ? 'Why is it declined? The customer reads this.' : 'Feedback for the customer (optional)'}
          aria-invalid={missingFeedback || undefined}
          aria-describedby={lengthHintShown(adminFeedback.length, FEEDBACK.max) ? `${id}-feedback-hint ${id}-feedback-length` : `${id}-feedback-hint`}
          maxLength={FEEDBACK.max}
        />
        <LengthHint id={`${id}-feedback-length`} label={FEEDBACK.label} length={adminFeedback.length} max={FEEDBACK.max} />
        <p id={`${id}-feedback-hint`} className={missingFeedback ? 'text-xs text-destructive' : 'text-xs text-muted-foreground'}>
          {choice === 'declined' ? 'Required when declining' : 'Optional when approving'}
        </p>
      </div>

      {error ? <ErrorAlert fallback={error.fallback} error={error.detail} /> : null}

      <div className="flex flex-col gap-2">
        <Button type="submit" disabled={choice === status || pending} aria-describedby={disabledWhy ? `${id}-why` : undefined} className="self-start">
          {pending ? 'Submitting...' : 'Submit Decision'}
        </Button>
        {disabledWhy ? (
          <p id={`${id}-why`} className="text-xs text-muted-foreground" data-testid="disabled-reason">
            {disabledWhy}
          </p>
        ) : null}
      </div>
    </form>
  );
}
