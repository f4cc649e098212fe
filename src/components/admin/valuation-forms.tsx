'use client';

import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useId, useRef, useState, useTransition, type FormEvent, type ReactNode, type RefObject } from 'react';
import { useRouter } from 'waku';
import type { Campaign, GuideEntry, Multiplier, Rule } from '#api/modules/valuation/model.ts';
import { ErrorAlert } from '#src/components/admin/error-alert.tsx';
import { ConfirmAction } from '#src/components/common/confirm-action.tsx';
import { flash } from '#src/components/common/flash.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '#src/components/ui/dialog.tsx';
import { Input } from '#src/components/ui/input.tsx';
import { Label } from '#src/components/ui/label.tsx';
import { NativeSelect } from '#src/components/ui/select.tsx';
import { Switch } from '#src/components/ui/switch.tsx';
import { apiCall } from '#src/lib/api-client.ts';
import { conditionShortLabel } from '#api/modules/requests/rules.ts';
import { ENTRY_FIELDS_REQUIRED, LIMITS, VALUATION_FIELD_LABELS } from '#api/modules/valuation/rules.ts';
import { LengthHint } from '#src/components/ui/length-hint.tsx';
import { nextDay, startOfDayIn } from '#api/lib/days.ts';

type Failure = { fallback: string; detail?: string | null } | null;

/** Runs a call, shows the failure as the Warehouse Manager does (the spec-style text with the server's reason), reloads on success. */
function useAction(fallback: string) {
  const router = useRouter();
  const [error, setError] = useState<Failure>(null);
  const [pending, startTransition] = useTransition();
  /** `done`: the toast that says what happened (every admin action ends in one). */
  const run = (call: () => Promise<{ ok: boolean; error: string | null }>, done: string, after?: () => void) =>
    startTransition(async () => {
      setError(null);
      const result = await call();
      if (!result.ok) return setError({ fallback, detail: result.error });
      after?.();
      flash(done);
      await router.reload();
    });
  return { error, setError, pending, run };
}

/** A labelled field; with `limit`, the text's length is shown as it nears the API's limit (LIMITS, in the API's words). */
function Field({ id, label, children, limit }: { id: string; label: string; children: ReactNode; limit?: { field: keyof typeof LIMITS; value: string } }) {
  const max = limit ? LIMITS[limit.field] : 0;
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {limit ? <LengthHint id={`${id}-length`} label={VALUATION_FIELD_LABELS[limit.field === 'campaignName' ? 'name' : limit.field] ?? label} length={limit.value.length} max={max} /> : null}
    </div>
  );
}

/**
 * Add (no `entry`) or edit a guide entry: brand, model pattern, name, base value and Active. Only
 * the button is there until it is pressed: a page of entries hydrates 26 buttons, not 26 dialogs
 * (what made /admin/valuation the slowest page to become interactive on a phone).
 */
export function EntryDialog({ entry }: { entry?: GuideEntry }) {
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const popup = { ref: trigger, type: 'button' as const, 'aria-haspopup': 'dialog' as const, 'aria-expanded': open, onClick: () => setOpen(true) };
  return (
    <>
      {entry ? (
        <Button {...popup} size="sm" variant="ghost" aria-label={`Edit ${entry.brand} ${entry.model}`}>
          <Pencil aria-hidden="true" />
        </Button>
      ) : (
        <Button {...popup} size="sm">
          <Plus aria-hidden="true" />
          Add Entry
        </Button>
      )}
      {open ? <EntryForm entry={entry} onClose={() => setOpen(false)} returnFocusTo={trigger} /> : null}
    </>
  );
}

function EntryForm({ entry, onClose, returnFocusTo }: { entry?: GuideEntry; onClose: () => void; returnFocusTo: RefObject<HTMLButtonElement | null> }) {
  const id = useId();
  const [form, setForm] = useState(() =>
    entry ? { brand: entry.brand, model: entry.model, name: entry.name, baseValue: String(entry.baseValue), isActive: entry.isActive } : { brand: '', model: '', name: '', baseValue: '', isActive: true },
  );
  const [invalid, setInvalid] = useState<string[]>([]);
  const { error, setError, pending, run } = useAction('Failed to save guide entry');
  const title = entry ? 'Edit Guide Entry' : 'Add Guide Entry';
  const text = (field: 'brand' | 'model' | 'name' | 'baseValue') => ({
    id: `${id}-${field}`,
    value: form[field],
    onChange: (e: { target: { value: string } }) => setForm({ ...form, [field]: e.target.value }),
    'aria-invalid': invalid.includes(field) || undefined,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing = (['brand', 'model', 'name', 'baseValue'] as const).filter((f) => !form[f].trim());
    setInvalid(missing);
    if (missing.length > 0) return setError({ fallback: ENTRY_FIELDS_REQUIRED(missing) });
    const body = { ...form, baseValue: form.baseValue.trim() };
    run(
      () => (entry ? apiCall(`/api/admin/valuation/entries/${entry.id}`, { method: 'PUT', body }) : apiCall('/api/admin/valuation/entries', { method: 'POST', body })),
      `Guide entry ${form.brand.trim()} ${form.model.trim()} ${entry ? 'saved' : 'added'}.`,
      onClose,
    );
  };
  return (
    <Dialog open onOpenChange={(next) => (next ? undefined : onClose())}>
      <DialogContent
        onCloseAutoFocus={(event) => {
          // there is no Radix trigger to go back to: focus returns to the button that opened it
          event.preventDefault();
          returnFocusTo.current?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>The model pattern is matched case-insensitively inside the product name; the longest pattern of the brand wins.</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="flex flex-col gap-3" aria-label={title}>
          <div className="grid gap-3 sm:grid-cols-2">
            <Field id={`${id}-brand`} label="Brand *" limit={{ field: 'brand', value: form.brand }}><Input {...text('brand')} maxLength={LIMITS.brand} /></Field>
            <Field id={`${id}-model`} label="Model pattern *" limit={{ field: 'model', value: form.model }}><Input {...text('model')} maxLength={LIMITS.model} placeholder="e.g. 88A" /></Field>
          </div>
          <Field id={`${id}-name`} label="Name *" limit={{ field: 'name', value: form.name }}><Input {...text('name')} maxLength={LIMITS.name} /></Field>
          <Field id={`${id}-baseValue`} label="Base value (a new unit) *"><Input {...text('baseValue')} inputMode="decimal" /></Field>
          <div className="flex items-center gap-2">
            <Switch id={`${id}-active`} checked={form.isActive} onCheckedChange={(isActive) => setForm({ ...form, isActive })} />
            <Label htmlFor={`${id}-active`}>Active</Label>
          </div>
          {error ? <ErrorAlert fallback={error.fallback} error={error.detail} /> : null}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>Cancel</Button>
            <Button type="submit" disabled={pending}>{pending ? 'Saving...' : 'Save'}</Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/**
 * A small button that makes one call (end a campaign, delete an entry or rule) and says what it did
 * in a toast. With `confirm`, the call waits for a confirmation (a deletion cannot be undone).
 */
export function ActionButton({
  path,
  method,
  label,
  fallback,
  icon,
  done,
  confirm,
}: {
  path: string;
  method: string;
  label: string;
  fallback: string;
  icon?: 'delete';
  done: string;
  confirm?: { title: string; description: string };
}) {
  const router = useRouter();
  const { error, pending, run } = useAction(fallback);
  // Like EntryDialog: the confirmation is made when the button is pressed, so a page of 26 entries
  // hydrates 26 buttons, not 26 closed dialogs (Lighthouse's mobile score fell to 94 with them).
  const [confirming, setConfirming] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const content = icon === 'delete' ? <Trash2 aria-hidden="true" /> : label;
  if (confirm) {
    return (
      <>
        <Button ref={button} type="button" size="sm" variant="ghost" aria-label={label} aria-haspopup="dialog" aria-expanded={confirming} onClick={() => setConfirming(true)}>
          {content}
        </Button>
        {confirming ? (
          <ConfirmAction
            open
            onOpenChange={(open) => {
              if (open) return;
              setConfirming(false);
              requestAnimationFrame(() => button.current?.focus());
            }}
            title={confirm.title}
            description={confirm.description}
            cancelLabel="Cancel"
            confirmLabel={(busy) => (busy ? 'Deleting...' : 'Delete')}
            run={() => apiCall(path, { method })}
            onDone={() => {
              flash(done);
              return router.reload();
            }}
            failure={{ inDialog: (reason) => <ErrorAlert fallback={fallback} error={reason} /> }}
          />
        ) : null}
      </>
    );
  }
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <Button type="button" size="sm" variant="ghost" disabled={pending} aria-label={label} onClick={() => run(() => apiCall(path, { method }), done)}>
        {content}
      </Button>
      {error ? <ErrorAlert fallback={error.fallback} error={error.detail} /> : null}
    </span>
  );
}

export function MultipliersForm({ multipliers }: { multipliers: Multiplier[] }) {
  const id = useId();
  const [values, setValues] = useState(() => Object.fromEntries(multipliers.map((m) => [m.condition, String(m.percent)])));
  const { error, setError, pending, run } = useAction('Failed to save multipliers');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = Object.fromEntries(Object.entries(values).map(([c, v]) => [c, Number(v)]));
    if (Object.values(values).some((v) => v.trim() === '' || !(Number(v) >= 0 && Number(v) <= 100))) return setError({ fallback: 'A multiplier must be a percentage from 0 to 100.' });
    run(() => apiCall('/api/admin/valuation/multipliers', { method: 'PUT', body }), 'Condition multipliers saved. New quotes use them now.');
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3" aria-label="Condition multipliers">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {multipliers.map((m) => (
          <Field key={m.condition} id={`${id}-${m.condition}`} label={`${conditionShortLabel(m.condition)} (%)`}>
            <Input id={`${id}-${m.condition}`} inputMode="decimal" value={values[m.condition]} onChange={(e) => setValues({ ...values, [m.condition]: e.target.value })} />
          </Field>
        ))}
      </div>
      {error ? <ErrorAlert fallback={error.fallback} error={error.detail} /> : null}
      <Button type="submit" size="sm" className="w-fit" disabled={pending}>{pending ? 'Saving...' : 'Save Multipliers'}</Button>
    </form>
  );
}

export function MinimumForm({ minimum }: { minimum: number }) {
  const id = useId();
  const [value, setValue] = useState(String(minimum));
  const { error, pending, run } = useAction('Failed to save the minimum');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        run(() => apiCall('/api/admin/valuation/minimum', { method: 'PUT', body: { minimumValue: value.trim() } }), 'Minimum trade-in value saved.');
      }}
      noValidate
      className="flex flex-wrap items-end gap-3"
      aria-label="Minimum trade-in value"
    >
      <Field id={`${id}-min`} label="Minimum trade-in value">
        <Input id={`${id}-min`} inputMode="decimal" value={value} onChange={(e) => setValue(e.target.value)} className="w-40" />
      </Field>
      <Button type="submit" size="sm" disabled={pending}>{pending ? 'Saving...' : 'Save Minimum'}</Button>
      {error ? <ErrorAlert className="basis-full" fallback={error.fallback} error={error.detail} /> : null}
    </form>
  );
}

export function RuleForm() {
  const id = useId();
  const blank = { brand: '', model: '', reason: '' };
  const [form, setForm] = useState(blank);
  const { error, setError, pending, run } = useAction('Failed to add the rule');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing = (['brand', 'reason'] as const).filter((f) => !form[f].trim());
    if (missing.length > 0) return setError({ fallback: ENTRY_FIELDS_REQUIRED(missing) });
    run(() => apiCall('/api/admin/valuation/rules', { method: 'POST', body: form }), `Rule added: ${[form.brand.trim(), form.model.trim()].filter(Boolean).join(' ')} is refused with its reason.`, () => setForm(blank));
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-3 sm:grid-cols-[1fr_1fr_2fr_auto] sm:items-end" aria-label="Add a rule">
      <Field id={`${id}-brand`} label="Brand *" limit={{ field: 'brand', value: form.brand }}><Input id={`${id}-brand`} value={form.brand} onChange={(e) => setForm({ ...form, brand: e.target.value })} maxLength={LIMITS.brand} /></Field>
      <Field id={`${id}-model`} label="Model pattern (optional)" limit={{ field: 'model', value: form.model }}><Input id={`${id}-model`} value={form.model} onChange={(e) => setForm({ ...form, model: e.target.value })} maxLength={LIMITS.model} /></Field>
      <Field id={`${id}-reason`} label="Reason customers see *" limit={{ field: 'reason', value: form.reason }}><Input id={`${id}-reason`} value={form.reason} onChange={(e) => setForm({ ...form, reason: e.target.value })} maxLength={LIMITS.reason} /></Field>
      <Button type="submit" size="sm" disabled={pending}>Add Rule</Button>
      {error ? <ErrorAlert className="sm:col-span-4" fallback={error.fallback} error={error.detail} /> : null}
    </form>
  );
}

/** A form's yyyy-mm-dd as the instant that day starts in the shop's zone (`end`: the day after, as the window includes it); anything else as typed. */
function windowInstant(day: string, timeZone: string, end = false): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day.trim())) return day;
  return startOfDayIn(end ? nextDay(day.trim()) : day.trim(), timeZone).toISOString();
}

/** A new bonus campaign; its From and Until are whole days in the shop's time zone (SHOP_TIME_ZONE). */
export function CampaignForm({ timeZone }: { timeZone: string }) {
  const id = useId();
  const blank = { name: '', kind: 'percent', value: '', brand: '', startsAt: '', endsAt: '' };
  const [form, setForm] = useState(blank);
  const { error, setError, pending, run } = useAction('Failed to add the campaign');
  const set = (field: keyof typeof blank) => (e: { target: { value: string } }) => setForm({ ...form, [field]: e.target.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing = (['name', 'value', 'startsAt', 'endsAt'] as const).filter((f) => !form[f].trim());
    if (missing.length > 0) return setError({ fallback: ENTRY_FIELDS_REQUIRED(missing) });
    const body = { ...form, startsAt: windowInstant(form.startsAt, timeZone), endsAt: windowInstant(form.endsAt, timeZone, true) };
    run(() => apiCall('/api/admin/valuation/campaigns', { method: 'POST', body }), `Campaign "${form.name.trim()}" added.`, () => setForm(blank));
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-3 sm:grid-cols-3 sm:items-end" aria-label="Add a campaign">
      <Field id={`${id}-name`} label="Name *" limit={{ field: 'campaignName', value: form.name }}><Input id={`${id}-name`} value={form.name} onChange={set('name')} maxLength={LIMITS.campaignName} /></Field>
      <Field id={`${id}-kind`} label="Bonus">
        <NativeSelect id={`${id}-kind`} value={form.kind} onChange={set('kind')}>
          <option value="percent">Percentage</option>
          <option value="amount">Fixed amount</option>
        </NativeSelect>
      </Field>
      <Field id={`${id}-value`} label="Value *"><Input id={`${id}-value`} inputMode="decimal" value={form.value} onChange={set('value')} /></Field>
      <Field id={`${id}-from`} label="From *"><Input id={`${id}-from`} type="date" value={form.startsAt} onChange={set('startsAt')} /></Field>
      <Field id={`${id}-until`} label="Until (included) *"><Input id={`${id}-until`} type="date" value={form.endsAt} onChange={set('endsAt')} /></Field>
      <Field id={`${id}-brand`} label="Brand (optional)" limit={{ field: 'brand', value: form.brand }}><Input id={`${id}-brand`} value={form.brand} onChange={set('brand')} maxLength={LIMITS.brand} /></Field>
      <Button type="submit" size="sm" className="w-fit" disabled={pending}>Add Campaign</Button>
      {error ? <ErrorAlert className="sm:col-span-3" fallback={error.fallback} error={error.detail} /> : null}
    </form>
  );
}

